// `svc me`: the team of SVC_TOKEN, its balance, earnings and own provider keys (never a key itself).
import { defineCommand } from 'citty';
import { asTeam } from './http.ts';
import { json, out, pairs, printJson, usd } from './print.ts';

export const me = defineCommand({
  meta: { name: 'me' },
  args: { json },
  async run({ args }) {
    const t = await asTeam<{ team: string; name: string; balance_micro: number; earnings_micro: number; own_keys: string[] }>('/teams/me');
    if (args.json) return printJson(t);
    out(pairs({ team: t.team, name: t.name, balance: usd(t.balance_micro), earnings: usd(t.earnings_micro), own_keys: t.own_keys.length ? t.own_keys.join(', ') : 'none' }));
  },
});

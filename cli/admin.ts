// `svc admin …`: teams (create, list), tokens and credit through the admin HTTP API.
import { defineCommand } from 'citty';
import { adminCall, adminTarget } from './admin-api.ts';
import { CliFailure, EXIT } from './fail.ts';
import { json, out, printJson } from './print.ts';
import { newTokenArgs, newTokenBody, printNewToken, printRevoked, printTokens } from './tokens.ts';
import type { ListedToken } from '../language/team-answers.ts';
import { formatUsd, parseUsdToMicro } from '../runtime/state/money.ts';

/** The USD text as given, once it reads as an amount the server keeps exactly; else a sentence, before any call. */
function usdArg(text: string): string {
  if (parseUsdToMicro(text) === null)
    throw new CliFailure(
      `'${text}' is not a USD amount svc accepts: use digits with at most 6 decimals, e.g. 10 or 0.25, up to ${formatUsd(Number.MAX_SAFE_INTEGER)}.`,
      EXIT.usage,
    );
  return text;
}

function print(asJson: boolean, data: Record<string, unknown>, lines: string[]): void {
  if (asJson) printJson(data);
  else out(lines.join('\n'));
}

const teamCreate = defineCommand({
  meta: { name: 'create', description: 'Create a team with credit and print its first token (shown once)' },
  args: {
    name: { type: 'positional', required: true, description: 'team name' },
    credit: { type: 'string', default: '0', description: 'starting credit in USD, e.g. 25 or 12.50' },
    json,
  },
  async run({ args }) {
    const res = await adminCall<{ team: string; token: string }>(adminTarget(), '/admin/teams', { name: args.name, credit_usd: usdArg(args.credit) });
    // the token alone on stdout, so `TOKEN=$(npx svc admin team create …)` works; the slug to stderr
    if (!args.json) process.stderr.write(`created team ${res.team}\n`);
    print(args.json, { team: res.team, token: res.token }, [res.token]);
  },
});

const teamList = defineCommand({
  meta: { name: 'list', description: 'List every team with its balance' },
  args: { json },
  async run({ args }) {
    const res = await adminCall<{ teams: Array<{ team: string; name: string; balance_micro: number; disabled_at: string | null }> }>(
      adminTarget(),
      '/admin/teams',
    );
    const line = (t: (typeof res.teams)[number]) => `${t.team}\t${t.balance_micro}\t${t.name}${t.disabled_at ? `\t(disabled since ${t.disabled_at})` : ''}`;
    print(args.json, res, res.teams.length ? res.teams.map(line) : ['(no teams)']);
  },
});

const teamArg = { type: 'positional', required: true, description: 'team slug' } as const;
const teamPath = (slug: string) => `/admin/teams/${encodeURIComponent(slug)}`;

/** `svc admin team disable|enable TEAM` */
const switchTeam = (action: 'disable' | 'enable') =>
  defineCommand({
    meta: {
      name: action,
      description:
        action === 'disable' ? 'Disable a team: every token and session of it is refused at once (data and balance stay)' : 'Enable a disabled team again',
    },
    args: { team: teamArg, json },
    async run({ args }) {
      const res = await adminCall<{ team: string; disabled_at: string | null }>(adminTarget(), `${teamPath(args.team)}/${action}`, {});
      print(args.json, res, [res.disabled_at ? `disabled team ${res.team} (since ${res.disabled_at})` : `enabled team ${res.team}`]);
    },
  });

const tokenCreate = defineCommand({
  meta: { name: 'create', description: 'Issue another token for a team (shown once)' },
  args: { team: teamArg, ...newTokenArgs },
  async run({ args }) {
    // (--json printed {"token": …} alone before tokens had ids; it now carries the listing's fields too)
    printNewToken(args.json, await adminCall<ListedToken & { token: string }>(adminTarget(), `${teamPath(args.team)}/tokens`, newTokenBody(args)));
  },
});

const tokenList = defineCommand({
  meta: { name: 'list', description: "A team's tokens (never a secret)" },
  args: { team: teamArg, json },
  async run({ args }) {
    printTokens(args.json, (await adminCall<{ tokens: ListedToken[] }>(adminTarget(), `${teamPath(args.team)}/tokens`)).tokens);
  },
});

const tokenRevoke = defineCommand({
  meta: { name: 'revoke', description: "Revoke a team's token by its id (tok_…): refused from the next call on" },
  args: { team: teamArg, id: { type: 'positional', required: true, description: 'token id, as `svc admin token list TEAM` shows it' }, json },
  async run({ args }) {
    printRevoked(args.json, await adminCall<ListedToken>(adminTarget(), `${teamPath(args.team)}/tokens/${encodeURIComponent(args.id)}`, undefined, 'DELETE'));
  },
});

const credit = defineCommand({
  meta: { name: 'credit', description: "Add USD to a team's balance" },
  args: {
    team: { type: 'positional', required: true, description: 'team slug' },
    usd: { type: 'positional', required: true, description: 'amount in USD, e.g. 10 or 0.25' },
    json,
  },
  async run({ args }) {
    const res = await adminCall<{ balance_micro: number }>(adminTarget(), `/admin/teams/${encodeURIComponent(args.team)}/credit`, { usd: usdArg(args.usd) });
    print(args.json, res, [`balance_micro: ${res.balance_micro}`]);
  },
});

export const admin = defineCommand({
  meta: { name: 'admin' },
  subCommands: {
    team: defineCommand({
      meta: { name: 'team', description: 'Teams' },
      subCommands: { create: teamCreate, list: teamList, disable: switchTeam('disable'), enable: switchTeam('enable') },
    }),
    token: defineCommand({ meta: { name: 'token', description: 'API tokens' }, subCommands: { create: tokenCreate, list: tokenList, revoke: tokenRevoke } }),
    credit,
  },
});

// `svc admin …`: teams (create, list), tokens and credit through the admin HTTP API.
import { defineCommand } from 'citty';
import { adminCall, adminTarget } from './admin-api.ts';
import { CliFailure, EXIT } from './fail.ts';
import { json } from './print.ts';
import { formatUsd, parseUsdToMicro } from '../runtime/state/money.ts';

/** The USD text as given, once it reads as an amount the server keeps exactly; else a sentence, before any call. */
function usdArg(text: string): string {
  if (parseUsdToMicro(text) === null) throw new CliFailure(`'${text}' is not a USD amount svc accepts: use digits with at most 6 decimals, e.g. 10 or 0.25, up to ${formatUsd(Number.MAX_SAFE_INTEGER)}.`, EXIT.usage);
  return text;
}

function print(asJson: boolean, data: Record<string, unknown>, lines: string[]): void {
  process.stdout.write(asJson ? `${JSON.stringify(data)}\n` : `${lines.join('\n')}\n`);
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
    const res = await adminCall<{ teams: Array<{ team: string; name: string; balance_micro: number }> }>(adminTarget(), '/admin/teams');
    print(args.json, res, res.teams.length ? res.teams.map((t) => `${t.team}\t${t.balance_micro}\t${t.name}`) : ['(no teams)']);
  },
});

const tokenCreate = defineCommand({
  meta: { name: 'create', description: 'Issue another token for a team (shown once)' },
  args: { team: { type: 'positional', required: true, description: 'team slug' }, json },
  async run({ args }) {
    const res = await adminCall<{ token: string }>(adminTarget(), `/admin/teams/${encodeURIComponent(args.team)}/tokens`, {});
    print(args.json, { token: res.token }, [res.token]);
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
    team: defineCommand({ meta: { name: 'team', description: 'Teams' }, subCommands: { create: teamCreate, list: teamList } }),
    token: defineCommand({ meta: { name: 'token', description: 'API tokens' }, subCommands: { create: tokenCreate } }),
    credit,
  },
});

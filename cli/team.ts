// `svc team tokens …`: the team of SVC_TOKEN lists, creates and revokes its own API tokens.
import { defineCommand } from 'citty';
import { asTeam } from './http.ts';
import { json } from './print.ts';
import { newTokenArgs, newTokenBody, printNewToken, printRevoked, printTokens } from './tokens.ts';
import type { ListedToken } from '../language/team-answers.ts';

const list = defineCommand({
  meta: { name: 'list', description: "List your team's tokens (never a secret); * marks the one in SVC_TOKEN" },
  args: { json },
  async run({ args }) {
    printTokens(args.json, (await asTeam<{ tokens: ListedToken[] }>('/teams/me/tokens')).tokens);
  },
});

const create = defineCommand({
  meta: { name: 'create', description: 'Create a token for your team and print it (shown once)' },
  args: newTokenArgs,
  async run({ args }) {
    printNewToken(args.json, await asTeam<ListedToken & { token: string }>('/teams/me/tokens', { body: newTokenBody(args) }));
  },
});

const revoke = defineCommand({
  meta: { name: 'revoke', description: "Revoke one of your team's tokens by its id (tok_…): refused from the next call on" },
  args: { id: { type: 'positional', required: true, description: 'token id, as `svc team tokens list` shows it' }, json },
  async run({ args }) {
    printRevoked(args.json, await asTeam<ListedToken>(`/teams/me/tokens/${encodeURIComponent(args.id)}`, { method: 'DELETE' }));
  },
});

export const team = defineCommand({
  meta: { name: 'team', description: 'Your team (SVC_TOKEN): its API tokens' },
  subCommands: { tokens: defineCommand({ meta: { name: 'tokens', description: "Your team's API tokens" }, subCommands: { list, create, revoke } }) },
});

// API tokens as the CLI shows them, for `svc team tokens …` (the team's own) and `svc admin token …`:
// the flags a new token takes, a listing as a table, a new token's secret alone on stdout.
import type { ListedToken } from '../language/team-answers.ts';
import { CliFailure, EXIT } from './fail.ts';
import { json, note, out, printJson, table } from './print.ts';

/** the flags of a new token */
export const newTokenArgs = {
  name: { type: 'string', description: 'a name to tell it apart in listings, e.g. "ci deploys"' },
  expires: { type: 'string', description: 'when it stops acting: a number of days (30d), a date (2027-01-31) or an ISO date-time with a zone' },
  json,
} as const;

/** the body of a new token: `30d` becomes a date-time here, anything else is the server's to check */
export function newTokenBody(args: { name?: string; expires?: string }, now = Date.now()): { name?: string; expires_at?: string } {
  const body: { name?: string; expires_at?: string } = {};
  if (args.name !== undefined) body.name = args.name;
  if (args.expires !== undefined) {
    const days = /^(\d{1,5})d$/.exec(args.expires.trim());
    if (days && Number(days[1]) === 0) throw new CliFailure('--expires 0d has already passed: give 1d or more, or a date.', EXIT.usage);
    body.expires_at = days ? new Date(now + Number(days[1]) * 86_400_000).toISOString() : args.expires;
  }
  return body;
}

/** a new token: the secret alone on stdout (so `TOKEN=$(svc … create)` works), its id on stderr; --json prints both */
export function printNewToken(asJson: boolean, res: ListedToken & { token: string }): void {
  if (asJson) {
    printJson(res);
    return;
  }
  note(`created token ${res.id}${res.name ? ` (${res.name})` : ''}${res.expires_at ? `, expires ${res.expires_at}` : ''}: shown this once`);
  out(res.token);
}

export function printTokens(asJson: boolean, tokens: ListedToken[]): void {
  if (asJson || !tokens.length) {
    if (asJson) printJson({ tokens });
    else out('(no tokens)');
    return;
  }
  const hasCurrent = tokens.some((t) => t.current);
  out(
    table(
      ['id', 'status', 'created', 'expires', 'name'],
      tokens.map((t) => [
        `${t.id}${hasCurrent && t.current ? ' *' : ''}`,
        t.status === 'revoked' ? `revoked ${t.revoked_at}` : t.status,
        t.created_at,
        t.expires_at ?? 'never',
        t.name ?? '',
      ]),
    ),
  );
  if (hasCurrent) note('* the token this command used (SVC_TOKEN)');
}

export function printRevoked(asJson: boolean, view: ListedToken): void {
  if (asJson) printJson(view);
  else out(`revoked ${view.id}${view.name ? ` (${view.name})` : ''} at ${view.revoked_at}`);
}

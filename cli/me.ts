// `svc me`: the team of SVC_TOKEN, its balance, earnings and own provider keys (never a key itself);
// `svc me feedback` and `svc me reviews`: what the team sent, newest first; `svc me ledger`: its ledger.
import { defineCommand } from 'citty';
import { asTeam } from './http.ts';
import { json, out, pairs, printJson, table, usd } from './print.ts';
import { ledger } from './ledger.ts';
import type { Paged, SentFeedback, SentReview, TeamAnswer } from '../language/team-answers.ts';

/** every page of one of the team's listings (a team sends tens of these, not thousands) */
async function everyPage<K extends string, T>(path: string, key: K): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const page: Paged<K, T> = await asTeam(`${path}${cursor ? `?cursor=${cursor}` : ''}`);
    rows.push(...page[key]);
    cursor = page.next_cursor;
  }
  return rows;
}

/** `svc me <what>`: every page of the listing, as a table (a hint when empty) or as {<what>: […]} */
function sentCommand<T>(what: 'feedback' | 'reviews', description: string, head: string[], row: (r: T) => Array<string | number | undefined>, none: string) {
  return defineCommand({
    meta: { name: what, description },
    args: { json },
    async run({ args }) {
      const rows = await everyPage<typeof what, T>(`/teams/me/${what}`, what);
      if (args.json) printJson({ [what]: rows });
      else out(rows.length ? table(head, rows.map(row)) : none);
    },
  });
}

const feedback = sentCommand<SentFeedback>(
  'feedback',
  'The feedback your team sent, newest first',
  ['id', 'sent', 'kind', 'about', 'status', 'message'],
  (f) => [f.id, f.created_at.slice(0, 10), f.kind, f.endpoint_id ?? f.capability, f.status, f.message],
  '(no feedback sent yet: svc feedback KIND MESSAGE sends some)',
);

const reviews = sentCommand<SentReview>(
  'reviews',
  'The reviews your team wrote (one per operation and month), newest first',
  ['month', 'operation', 'usefulness', 'reason'],
  (r) => [r.month, r.endpoint_id, r.usefulness, r.reason],
  '(no review written yet: svc review ENDPOINT useful|partly|not_useful REASON writes one)',
);

/** a stored key's provider, and when it is set aside (its provider refused it) until when, in the reader's time */
function ownKey(provider: string, setAside: TeamAnswer['own_keys_set_aside']): string {
  const until = setAside.find((s) => s.provider === provider)?.until;
  return until ? `${provider} (set aside until ${new Date(until).toLocaleTimeString()}: the provider refused it; calls use the platform key)` : provider;
}

export const me = defineCommand({
  meta: { name: 'me' },
  args: { json },
  subCommands: { feedback, reviews, ledger },
  async run({ args }) {
    if (args._.length) return; // citty runs this after the subcommand named, which printed its answer
    const t = await asTeam<TeamAnswer>('/teams/me');
    if (args.json) return printJson(t);
    out(
      pairs({
        team: t.team,
        name: t.name,
        balance: usd(t.balance_micro),
        earnings: usd(t.earnings_micro),
        own_keys: t.own_keys.length ? t.own_keys.map((p) => ownKey(p, t.own_keys_set_aside)).join(', ') : 'none',
      }),
    );
  },
});

// `svc me ledger`: the team's ledger, newest first, a page at a time; a charge whose provider
// stated what it billed names that figure beside the list price, as the dashboard does.
import { defineCommand } from 'citty';
import { reportedWords } from '../language/ledger-words.ts';
import type { LedgerEntry, Paged } from '../language/team-answers.ts';
import { asTeam } from './http.ts';
import { json, note, out, printJson, table, usd } from './print.ts';

export const ledger = defineCommand({
  meta: { name: 'ledger', description: "Your team's ledger, newest first (50 a page): charges, credits, earnings" },
  args: { cursor: { type: 'string', description: 'read on from here (the cursor a page ends with)' }, json },
  async run({ args }) {
    const page = await asTeam<Paged<'entries', LedgerEntry>>(`/teams/me/ledger${args.cursor ? `?cursor=${encodeURIComponent(args.cursor)}` : ''}`);
    if (args.json) return printJson(page);
    out(
      page.entries.length
        ? table(
            ['at', 'kind', 'amount', 'what', 'call', 'reported'],
            page.entries.map((e) => [e.at, e.kind, usd(e.amount_micro), e.endpoint_id ?? e.tool_id, e.call_id, reportedWords(e, usd)]),
          )
        : '(no entries)',
    );
    if (page.next_cursor) note(`older entries: svc me ledger --cursor ${page.next_cursor}`);
  },
});

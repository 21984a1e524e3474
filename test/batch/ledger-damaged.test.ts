// A batch of a team whose ledger file is damaged: each row is refused as the single call is (503,
// the same sentence, nothing charged), and the stream ends with its summary, rather than breaking
// off before any line.
import { expect, it } from 'vitest';
import { damagedLedger } from '../helpers/damaged-ledger.ts';
import { ndjson, readLines } from '../helpers/ndjson.ts';

it("answers every row 503 with the damaged ledger's sentence, then the summary", async () => {
  const w = await damagedLedger();
  try {
    const single = await fetch(`${w.url}/proxy/google.serp.organic`, {
      method: 'POST',
      headers: { 'x-svc-token': w.hurt.token, 'content-type': 'application/json' },
      body: JSON.stringify({ q: 'coffee' }),
    });
    expect(single.status).toBe(503);
    const { detail } = (await single.json()) as { detail: string };
    const r = await fetch(`${w.url}/proxy/google.serp.organic/batch`, {
      method: 'POST',
      headers: { 'x-svc-token': w.hurt.token, 'content-type': 'application/x-ndjson' },
      body: ndjson([
        { id: 1, q: 'coffee' },
        { id: 2, q: 'tea' },
      ]),
    });
    expect(r.status).toBe(200);
    const lines = await readLines(r);
    expect(lines.slice(0, -1).map((l) => [l.id, l.status, l.detail])).toEqual(
      expect.arrayContaining([
        [1, 503, detail],
        [2, 503, detail],
      ]),
    );
    expect(lines.at(-1)).toEqual({ event: 'summary', rows: 2, hits: 0, misses: 0, errors: 2, skipped: 0, cost_micro: 0 });
  } finally {
    await w.close();
  }
});

// A team whose ledger file is damaged (not by a crash: a crash tears only the last line) is refused
// with a 503 and a sentence on every call that reads or moves its balance; other teams go on.
import { expect, it } from 'vitest';
import { damagedLedger } from '../helpers/damaged-ledger.ts';

it('answers 503 with a sentence for the damaged team only, and logs where the damage is', async () => {
  const w = await damagedLedger();
  try {
    const as = (token: string, path: string, body?: object) =>
      fetch(`${w.url}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { 'x-svc-token': token, 'content-type': 'application/json' },
        body: body && JSON.stringify(body),
      });
    for (const r of [await as(w.hurt.token, '/teams/me'), await as(w.hurt.token, '/proxy/google.serp.organic', { q: 'coffee' })]) {
      expect(r.status).toBe(503);
      expect((await r.json()).detail).toMatch(/ledger cannot be read safely.*nothing was charged/);
    }
    expect((await as(w.fine.token, '/teams/me')).status).toBe(200);
  } finally {
    await w.close();
  }
});

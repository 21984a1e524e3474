// A batch's rows share the team's balance: a row refused because the batch's own rows in flight hold
// it waits for one of them to end and runs, as it would have alone, instead of answering 402.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { ndjson, readLines } from '../helpers/ndjson.ts';

/** what two attempts of findco's finder hold at once (20,000 each); a miss of it costs nothing */
const CREDIT = 40_000;
let w: RoutedWorld;
beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST, { creditMicro: CREDIT });
});
afterAll(() => w.close());

const send = (rows: object[]) =>
  fetch(`${w.url}/proxy/people.email.find/batch`, {
    method: 'POST',
    headers: { 'x-svc-token': w.token, 'content-type': 'application/x-ndjson', 'x-svc-batch-concurrency': '6', 'x-svc-route-waterfall': '0' },
    body: ndjson(rows),
  });

it('rows the batch itself holds the balance against wait and run: six free misses on a balance two attempts fill', async () => {
  const rows = Array.from({ length: 6 }, (_, i) => ({ id: `r${i}`, domain: 'acme.com', full_name: `Jane nohit-findco latency300ms-findco N${i}` }));
  const lines = await readLines(await send(rows));
  const answered = lines.filter((l) => l.id !== undefined);
  expect(answered.map((l) => `${l.id}:${l.status}:${l._svc?.served_by}`).sort()).toEqual(rows.map((r) => `${r.id}:200:null`));
  expect(answered.every((l) => l._svc.tried[0].endpoint_id === 'findco.people.email.find')).toBe(true);
  expect(lines.at(-1)).toMatchObject({ event: 'summary', misses: 6, errors: 0, cost_micro: 0 });
  expect(await w.ctx.state.balance(w.teamId)).toBe(CREDIT);
});

it('a row the balance itself cannot cover is still a 402 once no row of the batch is left running', async () => {
  // hits cost 20,000 each: two are paid, the rest find the balance spent
  const rows = Array.from({ length: 4 }, (_, i) => ({ id: `h${i}`, domain: 'acme.com', full_name: `Jane Doe latency300ms-findco H${i}` }));
  const lines = await readLines(await send(rows));
  const statuses = lines.filter((l) => l.id !== undefined).map((l) => l.status);
  expect(statuses.sort()).toEqual([200, 200, 402, 402]);
  expect(await w.ctx.state.balance(w.teamId)).toBe(0);
  expect(lines.at(-1)).toMatchObject({ event: 'summary', hits: 2, errors: 2, cost_micro: CREDIT });
});

it('rows all refused for the balance end, each a 402, however many wait at once (none frees what another needs)', async () => {
  const { token } = (await w.ctx.state.createTeam('broke batch team', 10))!;
  const rows = Array.from({ length: 8 }, (_, i) => ({ id: `b${i}`, domain: 'acme.com', full_name: `Jane Doe B${i}` }));
  const r = await fetch(`${w.url}/proxy/people.email.find/batch`, {
    method: 'POST',
    headers: { 'x-svc-token': token, 'content-type': 'application/x-ndjson', 'x-svc-batch-concurrency': '8' },
    body: ndjson(rows),
    signal: AbortSignal.timeout(8000),
  });
  const lines = await readLines(r);
  expect(lines.filter((l) => l.id !== undefined).map((l) => l.status)).toEqual(rows.map(() => 402));
  expect(lines.at(-1)).toMatchObject({ event: 'summary', rows: 8, errors: 8, cost_micro: 0 });
}, 15_000);

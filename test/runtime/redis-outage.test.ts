// Redis killed (SIGKILL) and started again under load, two instances on it: while it is away every
// call and /readyz answer 503 with a sentence and Retry-After, and nothing is charged; once it is back
// the same instances serve again without a restart, and the ledger holds every acknowledged charge,
// no other, summing exactly to the balance.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSandbox, loadSandboxCatalog, sandboxKeys, startSandbox, type RunningSandbox } from '../../sandbox/index.ts';
import { sandboxEnv } from '../../sandbox/svc-env.ts';
import type { AppContext } from '../../runtime/context/context.ts';
import type { LedgerEntry } from '../../runtime/state/index.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { appContext, serve } from '../helpers/server.ts';
import { ownRedis, type OwnRedis } from '../helpers/redis-server.ts';

let redis: OwnRedis;
let sandbox: RunningSandbox;
let ctx: AppContext[];
let urls: string[];
let closers: Array<() => Promise<void>>;

beforeAll(async () => {
  redis = await ownRedis();
  const runtime = loadSandboxCatalog(FIXTURE_DIST);
  const { keys } = sandboxKeys(runtime, {});
  sandbox = await startSandbox(createSandbox(runtime, { keys, stallMs: 5_000 }), 0);
  const env = { ...sandboxEnv(runtime, sandbox.url, keys), SVC_STORAGE: redis.url(0) };
  ctx = [await appContext(FIXTURE_DIST, env), await appContext(FIXTURE_DIST, env)];
  const servers = await Promise.all(ctx.map((c) => serve(c)));
  urls = servers.map((s) => s.url);
  closers = [...servers.map((s) => s.close), () => sandbox.close(), ...ctx.map((c) => () => c.state.close()), () => redis.stop()];
});
afterAll(async () => {
  for (const close of closers) await close();
});

interface Answer {
  status: number;
  callId: string | null;
  cost: number;
  retryAfter: string | null;
  detail: string | null;
  after: boolean;
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
};

it('answers 503 with Retry-After while Redis is away, recovers by itself, and keeps the ledger exact', async () => {
  const made = (await ctx[0].state.createTeam('Outage', 100_000_000))!;
  const answers: Answer[] = [];
  let restarted = false;
  let stop = false;
  const worker = async (w: number) => {
    for (let n = 0; !stop; n++) {
      const r = await fetch(`${urls[(w + n) % 2]}/proxy/google.serp.organic`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-token': made.token },
        body: JSON.stringify({ q: `w${w} n${n}` }),
      });
      const body = (await r.json()) as { _svc?: { call_id: string }; detail?: string };
      answers.push({
        status: r.status,
        callId: body._svc?.call_id ?? null,
        cost: Number(r.headers.get('x-svc-cost-micro') ?? 0),
        retryAfter: r.headers.get('retry-after'),
        detail: typeof body.detail === 'string' ? body.detail : null,
        after: restarted,
      });
    }
  };
  const load = Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
  const oks = () => answers.filter((a) => a.status === 200).length;

  await until(() => oks() >= 100);
  await redis.kill();
  const downAt = answers.length;
  await until(() => answers.slice(downAt).filter((a) => a.status === 503).length >= 20);
  const ready = await fetch(`${urls[1]}/readyz`);
  expect(ready.status).toBe(503);
  await redis.start();
  restarted = true;
  await until(() => answers.filter((a) => a.after && a.status === 200).length >= 100);
  stop = true;
  await load;

  expect((await fetch(`${urls[0]}/readyz`)).status).toBe(200);
  const failed = answers.filter((a) => a.status !== 200);
  expect(failed.length).toBeGreaterThanOrEqual(20);
  for (const a of failed) {
    expect(a.status).toBe(503);
    expect(a.retryAfter).toMatch(/^\d+$/);
    expect(a.detail).toMatch(/nothing was charged/);
  }
  // a charge whose answer Redis lost as it died is reversed once Redis answers (the callers heard 503)
  await Promise.all(ctx.map((c) => c.state.atomics.flush()));
  // read as the team reads it, through GET /teams/me/ledger
  const ledger: LedgerEntry[] = [];
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const r = await fetch(`${urls[1]}/teams/me/ledger${cursor ? `?cursor=${cursor}` : ''}`, { headers: { 'x-svc-token': made.token } });
    const page = (await r.json()) as { entries: LedgerEntry[]; next_cursor: string | null };
    ledger.push(...page.entries);
    cursor = page.next_cursor;
  }
  // what came back is a refund: a credit naming a charged call, never more than that call's charges
  for (const refund of ledger.filter((e) => e.kind === 'credit' && e.call_id)) {
    const charged = ledger.filter((e) => e.kind === 'charge' && e.call_id === refund.call_id).reduce((s, e) => s - e.amount_micro, 0);
    const refunded = ledger.filter((e) => e.kind === 'credit' && e.call_id === refund.call_id).reduce((s, e) => s + e.amount_micro, 0);
    expect(refunded).toBeLessThanOrEqual(charged);
  }
  // net of reversals, the ledger charges exactly the acknowledged calls, each once
  const net = new Map<string, number>();
  for (const e of ledger) if (e.call_id) net.set(e.call_id, (net.get(e.call_id) ?? 0) + e.amount_micro);
  const ok = answers.filter((a) => a.status === 200);
  expect(new Map([...net].filter(([, micro]) => micro !== 0))).toEqual(new Map(ok.map((a) => [a.callId!, -a.cost])));
  const balance = await ctx[0].state.balance(made.team.id);
  expect(ledger.reduce((s, e) => s + e.amount_micro, 0)).toBe(balance);
  expect(balance).toBe(100_000_000 - ok.reduce((s, a) => s + a.cost, 0));
}, 120_000);

it('a Redis that stops answering (frozen) turns calls into 503 within the command timeout, and they serve again once it answers', async () => {
  const made = (await ctx[0].state.createTeam('Frozen', 10_000_000))!;
  const call = (i: number) =>
    fetch(`${urls[i % 2]}/proxy/google.serp.organic`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-token': made.token },
      body: JSON.stringify({ q: `frozen ${i}` }),
    });
  expect((await call(0)).status).toBe(200);
  redis.freeze(true);
  try {
    const r = await call(1);
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
  } finally {
    redis.freeze(false);
  }
  await Promise.all(ctx.map((c) => c.state.atomics.flush()));
  expect((await call(2)).status).toBe(200);
  // the frozen call's charge, if Redis ran it when it woke, was reversed: only the answered calls cost
  const { entries } = await ctx[1].state.ledger(made.team.id, null);
  expect(entries.reduce((s, e) => s + e.amount_micro, 0)).toBe(await ctx[0].state.balance(made.team.id));
  expect(await ctx[0].state.balance(made.team.id)).toBe(10_000_000 - 2 * 1000);
}, 60_000);

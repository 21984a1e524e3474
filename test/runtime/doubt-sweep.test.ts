// A doubt outlives its instance: an instance sends a charge, Redis freezes before answering, and the
// instance is killed (a real process, SIGKILL) before it hears whether the charge landed, so its
// caller would have been told "nothing was charged". Redis then runs the charge. Another instance,
// still living, sees the dead instance's lease lapse and its post still open, and refunds it: the
// balance is back where it was, and the ledger shows the charge and the credit that undid it. And
// what the instance did tell its callers had landed, charging hard right up to the kill, stays: the
// sweep undoes no charge a caller was answered for; and the holds its calls in flight left on the
// balance are dropped with them, not left to bar the team until they expire.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createState, teamAccount, type State } from '../../runtime/state/index.ts';
import { ownRedis, type OwnRedis } from '../helpers/redis-server.ts';

let redis: OwnRedis;
let living: State;
let child: ChildProcess | null = null;

beforeAll(async () => {
  redis = await ownRedis('always');
  living = await createState({ storage: { kind: 'redis', url: redis.url(0) }, dataDir: '.', secret: 'doubt-sweep-secret' });
});
afterAll(async () => {
  child?.kill('SIGKILL');
  redis.freeze(false);
  await living.close();
  await redis.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (what: string, check: () => Promise<boolean>, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(200)) {
    try {
      if (await check()) return;
    } catch {
      /* Redis still coming back */
    }
  }
  throw new Error(`timed out waiting for ${what}`);
};

it('a charge whose instance died before hearing it landed is refunded by a living instance', async () => {
  const CREDIT = 1_000_000;
  const made = (await living.createTeam('Doubt Co', CREDIT))!;
  child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'doubt-sweep-child.ts'), redis.url(0), String(made.team.id)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (l) => lines.push(l));
  const exited = new Promise((r) => child!.once('exit', r));
  await until('the child instance', async () => lines.includes('ready'), 30_000);
  await sleep(300); // its lease is written
  child.stdin!.write('hold\n');
  await until('a hold for a call in flight', async () => lines.includes('held'), 10_000);
  child.stdin!.write('burst\n');
  const landed = () => lines.filter((l) => l.startsWith('landed ')).map((l) => l.slice('landed '.length));
  await until('charges answered landed', async () => landed().length >= 200, 30_000);

  redis.freeze(true);
  const told = new Set(landed()); // nothing is answered while Redis is frozen
  child.stdin!.write('go\n');
  await sleep(500); // the charge waits in the frozen Redis's socket
  child.kill('SIGKILL');
  await exited;
  expect(lines.some((l) => l.startsWith('charged'))).toBe(false);
  redis.freeze(false);

  const everyEntry = async () => {
    const all = [];
    for (let page = await living.ledger(made.team.id, null); ; page = await living.ledger(made.team.id, page.next_cursor)) {
      all.push(...page.entries);
      if (page.next_cursor === null) return all;
    }
  };
  const charges = async () => (await everyEntry()).filter((e) => e.call_id === 'doubt-call');
  // Redis ran the charge once it could: it landed, and the instance that sent it is gone
  await until('the charge to land', async () => (await charges()).some((e) => e.kind === 'charge'), 10_000);
  // the living instance sweeps it once the dead one's lease has lapsed
  await until('the refund', async () => (await charges()).some((e) => e.kind === 'credit'), 40_000);
  expect((await charges()).map((e) => `${e.kind} ${e.amount_micro}`).sort()).toEqual(['charge -1000', 'credit 1000']);
  // every charge the instance answered landed is charged still, never given back
  let entries = await everyEntry();
  // the sweep settles the dead instance's open posts one after another: read once it is done
  for (let before = -1; before !== entries.length; await sleep(500)) [before, entries] = [entries.length, await everyEntry()];
  expect(await living.balance(made.team.id)).toBe(entries.reduce((n, e) => n + e.amount_micro, 0));
  const refunded = new Set(entries.filter((e) => e.kind === 'credit' && e.call_id !== 'doubt-call').map((e) => e.call_id));
  const charged = new Set(entries.filter((e) => e.kind === 'charge').map((e) => e.call_id));
  expect([...told].filter((call) => refunded.has(call) || !charged.has(call))).toEqual([]);
  expect(told.size).toBeGreaterThanOrEqual(200);
  // and the hold its call in flight left is gone with it: the whole balance can be held again
  const balance = await living.balance(made.team.id);
  expect(await living.atomics.hold(teamAccount(made.team.id), 'whole-balance', balance, 60_000)).toEqual({ held: true, balance_micro: balance });
}, 90_000);

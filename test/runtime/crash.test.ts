// kill -9 in the middle of writing: every acknowledged record is there afterwards, whole and readable.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, expect, it } from 'vitest';
import { createStorage } from 'unstorage';
import { durableFs } from '../../runtime/state/drivers/durable-fs.ts';
import { createState } from '../../runtime/state/index.ts';
import { openFeedback } from '../../runtime/feedback/open.ts';
import { LEDGER_DIR } from '../../runtime/state/backend.ts';
import { HubStore } from '../../runtime/hub/store.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('survives kill -9 with no lost acknowledged write and no torn record', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'crash-child.ts'), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const acked = { credits: [] as number[], charges: [] as string[], ids: [] as number[], recs: [] as number[], pubs: [] as number[], team: 0, token: '' };
  const feedback: Array<[id: number, i: number]> = [];
  const reviews: Array<[id: number, i: number]> = [];
  await new Promise<void>((resolve, reject) => {
    child.on('exit', () => resolve());
    child.on('error', reject);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const [what, a, b] = line.split(' ');
      if (what === 'team') {
        acked.team = Number(a);
        acked.token = b;
      }
      if (what === 'credit') acked.credits.push(Number(a));
      if (what === 'charge') acked.charges.push(a);
      if (what === 'id') acked.ids.push(Number(a));
      if (what === 'rec') acked.recs.push(Number(a));
      if (what === 'feedback') feedback.push([Number(a), Number(b)]);
      if (what === 'review') reviews.push([Number(a), Number(b)]);
      if (what === 'pub') acked.pubs.push(Number(a));
      if (acked.recs.length === 150) child.kill('SIGKILL');
    });
  });
  expect(child.signalCode).toBe('SIGKILL');
  expect(acked.recs.length).toBeGreaterThanOrEqual(150);
  expect(acked.pubs.length).toBeGreaterThanOrEqual(100);

  const state = await createState({ storage: { kind: 'fs' as const, dir: null }, dataDir: dir, secret: 'crash-secret' });
  expect((await state.teamForCredential({ token: acked.token }))?.id).toBe(acked.team);
  // every acknowledged credit and charge is in the ledger, and the balance is its sum
  const sum = acked.credits.reduce((s, n) => s + n, 0);
  const balance = await state.balance(acked.team);
  const ledger: number[] = [];
  const charged = new Set<string>();
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const page: { entries: Array<{ amount_micro: number; call_id?: string }>; next_cursor: string | null } = await state.ledger(acked.team, cursor);
    ledger.push(...page.entries.map((e) => e.amount_micro));
    for (const e of page.entries) if (e.call_id) charged.add(e.call_id);
    cursor = page.next_cursor;
  }
  expect(ledger.reduce((s, n) => s + n, 0)).toBe(balance);
  for (const c of acked.credits) expect(ledger).toContain(c);
  expect(acked.charges.length).toBeGreaterThan(100);
  for (const c of acked.charges) expect(charged.has(c)).toBe(true);
  // at most the in-flight posts more than what was acknowledged (each charge is 1 micro-USD)
  expect(balance).toBeGreaterThanOrEqual(sum - charged.size);
  // ids keep increasing past every acknowledged one
  expect(await state.atomics.nextId('crash')).toBeGreaterThan(Math.max(...acked.ids));
  // every acknowledged publish is there, whole, and version numbers go on past them
  const hub = new HubStore(state.atomics);
  expect((await hub.tool('crash-tool'))?.team_id).toBe(acked.team);
  for (const n of acked.pubs)
    expect(await hub.version('crash-tool', n)).toMatchObject({ version: n, status: 'unchecked', files: { 'check.json': 'x'.repeat(4096) } });
  expect(
    (await hub.addVersion('crash-tool', { 'tool.json': '{}', 'input.schema.json': '{}', 'output.schema.json': '{}', 'check.json': '{}' }, 0)).version,
  ).toBeGreaterThan(Math.max(...acked.pubs));
  // every record is whole JSON
  const storage = createStorage({ driver: durableFs({ base: dir }) });
  for (const i of acked.recs) expect(await storage.getItem(`rec:${i}`)).toEqual({ i, pad: 'x'.repeat(4096) });
  // credits posted together were stored together: fewer ledger lines than entries, each whole
  const lines = readFileSync(join(dir, LEDGER_DIR, `team-${acked.team}.jsonl`), 'utf8').split('\n');
  expect(lines.pop()).toBe('');
  expect(lines.length).toBeLessThan(ledger.length);
  expect(lines.flatMap((l) => JSON.parse(l) as unknown[])).toHaveLength(ledger.length);
  // every acknowledged feedback record reads back whole; on each endpoint the review standing is the
  // last acknowledged one or a later one that was in flight
  expect(feedback.length).toBeGreaterThan(0);
  const opened = await openFeedback(state);
  for (const [id, i] of feedback) expect((await opened.feedback.get(acked.team, id))?.message).toBe(`crash ${i}`);
  expect(await state.atomics.nextId('feedback')).toBeGreaterThan(Math.max(...feedback.map(([id]) => id)));
  expect(reviews.length).toBeGreaterThan(0);
  for (const [, i] of reviews) {
    const standing = opened.reviews.summary(`crash.e${i % 8}`)!.samples;
    expect(standing).toHaveLength(1);
    expect(Number(standing[0].reason.slice('crash '.length))).toBeGreaterThanOrEqual(i);
  }
  expect(await state.atomics.nextId('review')).toBeGreaterThan(Math.max(...reviews.map(([id]) => id)));
  for (const key of await storage.getKeys()) {
    if (key === 'secret' || key.startsWith(`${LEDGER_DIR}:`)) continue;
    const raw = await storage.getItemRaw<Buffer>(key);
    expect(() => JSON.parse(String(raw)), key).not.toThrow();
  }
  await state.close();
});

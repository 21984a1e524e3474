// kill -9 between a hub run's charge and its maker's earning (embedded store): the next start pays
// every earning left due exactly once, and one already paid is not paid again.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, expect, it, vi } from 'vitest';
import { readConfig } from '../../runtime/config/config.ts';
import { createRuntime } from '../../runtime/serve/create-runtime.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';

const PRICE = 70_000;
const dir = mkdtempSync(join(tmpdir(), 'svc-earn-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const start = async () => (await createRuntime(readConfig({ SVC_DIST_DIR: FIXTURE_DIST, SVC_DATA_DIR: dir, SVC_SECRET: 'crash-secret' }))).ctx;

it('pays the maker once for every charge that landed before kill -9, at the next start', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'earnings-crash-child.ts'), dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const seen = { caller: 0, maker: 0, charged: [] as string[], paid: [] as string[] };
  await new Promise<void>((resolve, reject) => {
    child.on('exit', () => resolve());
    child.on('error', reject);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const [what, a, b] = line.split(' ');
      if (what === 'teams') {
        seen.caller = Number(a);
        seen.maker = Number(b);
      }
      if (what === 'charged') seen.charged.push(a);
      if (what === 'paid') seen.paid.push(a);
      if (what === 'ready') child.kill('SIGKILL');
    });
  });
  expect(child.signalCode).toBe('SIGKILL');
  expect(seen.charged).toHaveLength(3);

  for (let restart = 0; restart < 2; restart++) {
    const ctx = await start();
    expect(await ctx.state.balance(seen.caller)).toBe(1_000_000 - 4 * PRICE);
    // the start's repair runs in the background
    await vi.waitFor(async () => expect(await ctx.state.atomics.keys('earning-due')).toEqual([]), { timeout: 5000 });
    const earnings = (await ctx.state.ledger(seen.maker, null)).entries.filter((e) => e.kind === 'earning');
    expect(earnings.map((e) => e.call_id).sort()).toEqual([...seen.charged, ...seen.paid].sort());
    expect(await ctx.state.account(seen.maker)).toEqual({ balance_micro: 0, earnings_micro: 4 * PRICE });
    await ctx.state.close();
  }
});

// When the embedded ledger's file store reaches the disk (runtime/state/ledger-store-segments.ts): a
// charge is in the file (the kernel's cache, which outlives the process) before it is acknowledged and
// fdatasync'd within syncMs, one sync for every chunk written meanwhile; a credit is synced before it
// is acknowledged; close syncs what is left; a failed fdatasync stops the account until it is read
// again. The one edge stood in for is the disk's answer to fdatasync, watched on FileHandle itself.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { LocalLedger } from '../../runtime/state/ledger-local.ts';
import { SegmentLedgerStore } from '../../runtime/state/ledger-store-segments.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
afterEach(() => {
  vi.restoreAllMocks();
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'svc-ledger-sync-'));
  dirs.push(d);
  return d;
};

/** FileHandle.prototype.datasync, watched: every call is counted and goes on to the disk */
async function watchDatasync() {
  const probe = await open(join(tempDir(), 'probe'), 'w');
  const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
  await probe.close();
  return vi.spyOn(proto, 'datasync');
}

const SYNC_MS = 150;

async function funded(syncMs: number) {
  const dir = tempDir();
  const store = new SegmentLedgerStore(dir, null, syncMs);
  const ledger = new LocalLedger(store);
  await ledger.post('acct', { kind: 'credit', amount_micro: 1000 });
  const lines = () =>
    readFileSync(join(dir, 'acct.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Array<{ call_id?: string }>);
  return { dir, ledger, lines };
}
const charge = (ledger: LocalLedger, call: string) => ledger.post('acct', { kind: 'charge', amount_micro: -10, call_id: call });

describe('the file store with a sync interval', () => {
  it('acknowledges a charge once it is in the file, and syncs every chunk written meanwhile once, within the interval', async () => {
    const datasync = await watchDatasync();
    const { ledger, lines } = await funded(SYNC_MS);
    const paidIn = datasync.mock.calls.length;
    expect(paidIn).toBe(1); // the credit waited for the disk
    const written = Date.now();
    expect((await charge(ledger, 'a'))!.amount_micro).toBe(-10);
    // in the file at once, so a kill -9 now keeps it; not yet synced
    expect(
      lines()
        .flat()
        .map((e) => e.call_id),
    ).toContain('a');
    expect(datasync.mock.calls.length).toBe(paidIn);
    await Promise.all([charge(ledger, 'b'), charge(ledger, 'c')]);
    await new Promise((r) => setImmediate(r));
    await charge(ledger, 'd');
    expect(lines().length).toBeGreaterThanOrEqual(4); // separate chunks: credit, a, b+c, d
    expect(datasync.mock.calls.length).toBe(paidIn);
    await vi.waitFor(() => expect(datasync.mock.calls.length).toBe(paidIn + 1), { timeout: 5000, interval: 5 });
    expect(Date.now() - written).toBeGreaterThanOrEqual(SYNC_MS - 5);
    // nothing written since: no further sync
    await new Promise((r) => setTimeout(r, SYNC_MS * 2));
    expect(datasync.mock.calls.length).toBe(paidIn + 1);
    await ledger.flush();
  });

  it('syncs a credit before acknowledging it, and what is left at close', async () => {
    const datasync = await watchDatasync();
    const { ledger, dir } = await funded(60_000);
    expect(datasync).toHaveBeenCalledTimes(1);
    await charge(ledger, 'x');
    expect(datasync).toHaveBeenCalledTimes(1);
    await ledger.flush();
    expect(datasync).toHaveBeenCalledTimes(2);
    const again = new LocalLedger(new SegmentLedgerStore(dir, null, 60_000));
    expect(await again.account('acct')).toEqual({ balance_micro: 990, earnings_micro: 0 });
    await again.flush();
  });

  it('takes no post after a failed sync until the account is read again, and loses nothing that landed', async () => {
    const datasync = await watchDatasync();
    const { ledger } = await funded(20);
    datasync.mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await charge(ledger, 'before');
    await vi.waitFor(() => expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toMatch(/fdatasync failed \(EIO/), { timeout: 5000, interval: 5 });
    stderr.mockRestore();
    await expect(charge(ledger, 'refused')).rejects.toThrow(/EIO/);
    // read again from the file: the acknowledged charge is there, the refused one is not
    expect(await ledger.account('acct')).toEqual({ balance_micro: 990, earnings_micro: 0 });
    expect((await charge(ledger, 'after'))!.id).toBe(3);
    const { entries } = await ledger.entries('acct', null, 10);
    expect(entries.map((e) => e.call_id)).toEqual(['after', 'before', undefined]);
    await ledger.flush();
  });
});

describe('the file store synced at each write', () => {
  it('answers a charge only after its write returned from the disk, and leaves nothing to sync later', async () => {
    const datasync = await watchDatasync();
    const { ledger, lines } = await funded(0);
    await charge(ledger, 'a');
    expect(
      lines()
        .flat()
        .map((e) => e.call_id),
    ).toContain('a');
    const after = datasync.mock.calls.length;
    await new Promise((r) => setTimeout(r, 200));
    // O_DSYNC writes need no fdatasync; where the platform lacks it, each write had its own
    expect(datasync.mock.calls.length).toBe(after);
    await ledger.flush();
    expect(datasync.mock.calls.length).toBe(after);
  });
});

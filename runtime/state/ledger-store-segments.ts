// Ledger chunks in one append-only file per account, `{dir}/{account}.jsonl`: a chunk is one line (a
// JSON array of its entries) written at the end of the file, and opening an account scans its file
// once. A chunk is in the kernel before append resolves, so it survives a crash of svc (kill -9); it
// reaches the disk within `syncMs` (one fdatasync per account for every chunk written meanwhile), or,
// with syncMs 0 and for any chunk holding a credit (money paid in), before append resolves. Only the
// last line can be torn by a crash, and nothing in it was acknowledged, so opening cuts it off; any
// other damage stops the open with an error rather than guessing at money. An account still in the
// record layout of earlier builds is copied into a new file on first open.
import { constants, existsSync, ftruncateSync, writeSync } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { lastAtOrBelow } from '../util/sorted.ts';
import { syncDir, writeAtomically } from '../util/durable-write.ts';
import { LedgerDamaged, totalsAfter, type LedgerStore, type StoredEntry, type Totals } from './ledger-store.ts';

interface Segment {
  fd: FileHandle;
  size: number;
  /** written since its last fdatasync */
  dirty: boolean;
  /** a background fdatasync that failed: what was acknowledged may not be on the disk, so the account is read again */
  syncFailed: unknown;
  /** per line: its chunk's first id and its byte offset */
  firsts: number[];
  starts: number[];
}

/** every line starts so, then the first id's digits (LocalLedger keeps `id` first) */
const HEAD = Buffer.from('[{"id":');
const HEAD_BYTES = HEAD.length + 16;
const SCAN_BLOCK = 1 << 20;
/** entries per line when copying an account from the record layout */
const COPY_CHUNK = 256;

const NEWLINE = 0x0a;
/**
 * With syncMs 0 appends open the file with O_DSYNC where the platform has it: a write then returns once
 * its data and the file's new size are stored, as a write followed by fdatasync would, in one system
 * call and one trip to the thread pool instead of two (a group commit here: about 130 µs of CPU against
 * 190 µs, bench/README.md). Elsewhere each append is followed by fdatasync.
 */
const DSYNC: number = constants.O_DSYNC ?? 0;

export class SegmentLedgerStore implements LedgerStore {
  private segments = new Map<string, Segment>();
  private dirReady: Promise<void> | null = null;
  private syncTimer: NodeJS.Timeout | null = null;
  private syncing: Promise<void> | null = null;
  /** O_DSYNC when every write is synced and the platform has it (then no write needs an fdatasync), else 0 */
  private readonly dsync: number;

  /**
   * `legacy`: the record store of earlier builds, read once per account that has no file yet;
   * `syncMs`: the longest an acknowledged chunk waits for the disk (0: none, each write is synced)
   */
  constructor(
    private dir: string,
    private legacy: LedgerStore | null,
    private syncMs: number,
  ) {
    this.dsync = syncMs === 0 ? DSYNC : 0;
  }

  async open(account: string): Promise<Totals> {
    await this.syncing; // a background sync must not meet a handle closed below
    const before = this.segments.get(account);
    if (before?.dirty) await before.fd.datasync().catch(() => {});
    await before?.fd.close().catch(() => {});
    this.segments.delete(account);
    const path = this.path(account);
    if (!existsSync(path)) await this.create(account, path);
    const fd = await open(path, constants.O_RDWR | this.dsync);
    try {
      const { segment, last } = await scan(fd, path);
      this.segments.set(account, segment);
      return last ? totalsAfter(last) : { balance_micro: 0, earnings_micro: 0, seq: 0 };
    } catch (e) {
      await fd.close();
      throw e;
    }
  }

  async append(account: string, entries: StoredEntry[]): Promise<void> {
    if (this.appendAtOnce(account, entries)) return;
    const seg = this.segments.get(account)!;
    const line = chunkLine(entries);
    const bytes = Buffer.byteLength(line);
    try {
      // a synced write waits for the disk, so it goes to the thread pool
      checkWritten(account, (await seg.fd.write(line, seg.size, 'utf8')).bytesWritten, bytes);
      if (!this.dsync) await seg.fd.datasync();
    } catch (e) {
      // cut off what may have landed: a chunk that was not acknowledged must not be read back
      await seg.fd.truncate(seg.size).catch(() => {});
      throw e;
    }
    this.appended(seg, entries, bytes);
  }

  /**
   * A chunk that need not wait for the disk is written here and now: a small write to the kernel's
   * cache takes microseconds, which spares the thread pool's round trip (and a lone post's promises).
   */
  appendAtOnce(account: string, entries: StoredEntry[]): boolean {
    const seg = this.segments.get(account)!;
    if (seg.syncFailed) throw seg.syncFailed;
    if (this.syncMs === 0 || entries.some(paidIn)) return false;
    const line = chunkLine(entries);
    const bytes = Buffer.byteLength(line);
    try {
      checkWritten(account, writeSync(seg.fd.fd, line, seg.size, 'utf8'), bytes);
    } catch (e) {
      try {
        ftruncateSync(seg.fd.fd, seg.size);
      } catch {
        /* the account is read again, and a torn last line is cut off then */
      }
      throw e;
    }
    this.appended(seg, entries, bytes);
    this.syncSoon(seg);
    return true;
  }

  async firsts(account: string): Promise<readonly number[]> {
    return this.segments.get(account)?.firsts ?? [];
  }

  async chunk(account: string, first: number): Promise<StoredEntry[]> {
    const seg = this.segments.get(account);
    const i = seg ? lastAtOrBelow(seg.firsts, first) : -1;
    if (!seg || i < 0 || seg.firsts[i] !== first) return [];
    const end = i + 1 < seg.starts.length ? seg.starts[i + 1] : seg.size;
    return readLine(seg.fd, seg.starts[i], end);
  }

  async close(): Promise<void> {
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = null;
    await this.syncing;
    await this.syncDirty();
    for (const seg of this.segments.values()) await seg.fd.close().catch(() => {});
    this.segments.clear();
  }

  private appended(seg: Segment, entries: StoredEntry[], bytes: number): void {
    seg.firsts.push(entries[0].id);
    seg.starts.push(seg.size);
    seg.size += bytes;
  }

  /** an fdatasync of every account written since the last one, syncMs after the first such write */
  private syncSoon(seg: Segment): void {
    seg.dirty = true;
    this.syncTimer ??= setTimeout(() => {
      this.syncTimer = null;
      this.syncing = this.syncDirty().finally(() => {
        this.syncing = null;
      });
    }, this.syncMs).unref();
  }

  private async syncDirty(): Promise<void> {
    for (const seg of this.segments.values()) {
      if (!seg.dirty) continue;
      seg.dirty = false;
      // After a failed fdatasync the kernel may drop the pages it could not write, so the account
      // takes no more posts until it is read again (ledger-local.ts reopens it on a failed append).
      await seg.fd.datasync().catch((e: unknown) => {
        seg.syncFailed = e;
        process.stderr.write(`svc: ledger: fdatasync failed (${e instanceof Error ? e.message : String(e)}); the account is read again from its file\n`);
      });
    }
  }

  private path(account: string): string {
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(account)) throw new Error(`ledger: account name ${JSON.stringify(account)} cannot name a file`);
    return join(this.dir, `${account}.jsonl`);
  }

  /** a new file, holding the account's entries from the record layout if it has any */
  private async create(account: string, path: string): Promise<void> {
    await (this.dirReady ??= mkdir(this.dir, { recursive: true }).then(() => syncDir(dirname(this.dir))));
    const entries = this.legacy ? await copyOut(this.legacy, account) : [];
    const lines = [];
    for (let i = 0; i < entries.length; i += COPY_CHUNK) lines.push(`${JSON.stringify(entries.slice(i, i + COPY_CHUNK))}\n`);
    await writeAtomically(path, lines.join(''));
  }
}

/**
 * A chunk's line: its entries as JSON.stringify writes them (the fields in the order LocalLedger
 * makes them, absent references left out), built by hand: the writes are a routed call's, on its path.
 */
function chunkLine(entries: StoredEntry[]): string {
  let line = '[';
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    line += `${i ? ',' : ''}{"id":${e.id},"at":${JSON.stringify(e.at)},"kind":${JSON.stringify(e.kind)},"amount_micro":${e.amount_micro}`;
    if (e.endpoint_id !== undefined) line += `,"endpoint_id":${JSON.stringify(e.endpoint_id)}`;
    if (e.call_id !== undefined) line += `,"call_id":${JSON.stringify(e.call_id)}`;
    if (e.tool_id !== undefined) line += `,"tool_id":${JSON.stringify(e.tool_id)}`;
    if (e.reported_micro !== undefined)
      line += `,"list_micro":${e.list_micro},"reported_micro":${e.reported_micro},"reported_value":${e.reported_value},"reported_unit":${JSON.stringify(e.reported_unit)}`;
    line += `,"balance_after":${e.balance_after},"earnings_after":${e.earnings_after}}`;
  }
  return `${line}]\n`;
}

function checkWritten(account: string, written: number, bytes: number): void {
  if (written !== bytes) throw new Error(`ledger ${account}: short write (${written} of ${bytes} bytes)`);
}

/** money paid in (a credit) is on the disk before it is acknowledged, whatever syncMs says */
const paidIn = (e: StoredEntry): boolean => e.kind === 'credit';

/** every entry an account holds in another store, checked to run 1, 2, 3… */
async function copyOut(store: LedgerStore, account: string): Promise<StoredEntry[]> {
  const { seq } = await store.open(account);
  if (seq === 0) return [];
  const entries: StoredEntry[] = [];
  for (const first of await store.firsts(account)) {
    for (const { id, ...rest } of await store.chunk(account, first)) {
      // `id` first, as every line must start
      if (id > entries.length && id <= seq) entries.push({ id, ...rest });
    }
  }
  entries.forEach((e, i) => {
    if (e.id !== i + 1) throw new LedgerDamaged(`ledger ${account}: the stored ledger skips from ${i} to ${e.id}; not copied`);
  });
  if (entries.length !== seq) throw new LedgerDamaged(`ledger ${account}: the stored ledger ends at ${entries.length}, its checkpoint says ${seq}; not copied`);
  return entries;
}

/** the chunk's first id from the head of its line, or null when the head is not a chunk's */
function headId(head: Buffer): number | null {
  if (head.length <= HEAD.length || head.compare(HEAD, 0, HEAD.length, 0, HEAD.length) !== 0) return null;
  const m = /^(\d{1,15}),/.exec(head.toString('latin1', HEAD.length));
  return m ? Number(m[1]) : null;
}

async function readLine(fd: FileHandle, start: number, end: number): Promise<StoredEntry[]> {
  const buf = Buffer.allocUnsafe(end - start);
  const { bytesRead } = await fd.read(buf, 0, buf.length, start);
  return JSON.parse(buf.toString('utf8', 0, bytesRead)) as StoredEntry[];
}

/**
 * Index every line (its start and its chunk's first id) in one pass, cut off a torn tail (bytes
 * after the last newline, or a last line that is not a whole chunk), and answer the last entry.
 */
async function scan(fd: FileHandle, path: string): Promise<{ segment: Segment; last: StoredEntry | null }> {
  const { size } = await fd.stat();
  const starts: number[] = [];
  const firsts: Array<number | null> = [];
  const buf = Buffer.allocUnsafe(SCAN_BLOCK);
  let end = 0; // just past the last newline seen
  for (let pos = 0; pos < size; ) {
    const { bytesRead } = await fd.read(buf, 0, Math.min(SCAN_BLOCK, size - pos), pos);
    if (bytesRead === 0) break;
    for (let i = buf.indexOf(NEWLINE); i !== -1 && i < bytesRead; i = buf.indexOf(NEWLINE, i + 1)) {
      const start = end;
      const at = start - pos;
      // a head that began in an earlier block, or runs past this one, is read apart
      const inBlock = at >= 0 && at + HEAD_BYTES <= bytesRead;
      starts.push(start);
      firsts.push(headId(inBlock ? buf.subarray(at, at + HEAD_BYTES) : await readHead(fd, start)));
      end = pos + i + 1;
    }
    pos += bytesRead;
  }
  // the last line must be a whole chunk, or it is the torn write of a crash
  let last: StoredEntry | null = null;
  if (starts.length) {
    const lastStart = starts[starts.length - 1];
    const entries = firsts[firsts.length - 1] === null ? null : await readLine(fd, lastStart, end).catch(() => null);
    if (entries?.length) last = entries[entries.length - 1];
    else {
      end = lastStart;
      starts.pop();
      firsts.pop();
      if (starts.length) last = (await readLine(fd, starts[starts.length - 1], end).catch(() => [])).at(-1) ?? null;
      if (starts.length && !last) throw new LedgerDamaged(`${path}: the line at byte ${starts[starts.length - 1]} is damaged`);
    }
  }
  const damaged = firsts.indexOf(null);
  if (damaged >= 0) throw new LedgerDamaged(`${path}: the line at byte ${starts[damaged]} is damaged`);
  if (end !== size) {
    await fd.truncate(end);
    await fd.datasync();
  }
  return { segment: { fd, size: end, dirty: false, syncFailed: null, firsts: firsts as number[], starts }, last };
}

async function readHead(fd: FileHandle, start: number): Promise<Buffer> {
  const buf = Buffer.alloc(HEAD_BYTES);
  const { bytesRead } = await fd.read(buf, 0, HEAD_BYTES, start);
  return buf.subarray(0, bytesRead);
}

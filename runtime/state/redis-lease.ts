// Doubts that outlive their instance. A ledger post whose answer was lost is a doubt of the instance
// that sent it (redis-doubts.ts): its caller heard 503, "nothing was charged", and the instance undoes
// the post once Redis answers again. If that instance dies first, its memory of the doubt dies too,
// so the post script also names every post in a hash of the poster's open receipts, and the poster
// takes each one out when it hears the answer, before it tells its caller the post landed (one write
// per turn of the event loop, for every answer heard in it). What is left under an instance that is
// gone is what it never told a caller had landed: its doubts, and posts whose callers heard nothing,
// which any living instance then settles.
// An instance is alive while its lease (a key it sets again every LEASE_BEAT_MS) stands. A living
// instance sweeps the open receipts of one whose lease has lapsed, once it has itself been connected
// for a whole lease (so every instance still alive has had time to renew its own, and to take out
// what it heard answered), taking the sweep with SET NX so one instance does it.
import { randomHex } from '../util/call-id.ts';
import { onRedis, type RedisClient } from './redis-client.ts';
import type { LedgerDraft } from './atomics.ts';

export const LEASE_MS = 10_000;
const LEASE_BEAT_MS = 2000;
const INSTANCES = 'instances';
const lease = (id: string) => `live:${id}`;
/** an instance's open receipts: receipt key → account, a line break, the entry's JSON */
export const openReceipts = (id: string) => `open:${id}`;

/** how a gone instance's open post is undone (a charge refunded, anything else reversed under its own receipt), and a hold it left dropped */
export interface Undo {
  refund(account: string, chargeId: number, amount: number): Promise<unknown>;
  reverse(account: string, draft: LedgerDraft, receipt: string): Promise<unknown>;
  /** `stored`: the hold's id as stored, under its instance's id */
  unhold(account: string, stored: string): Promise<unknown>;
}

/** the prefix of an account's holds hash (atomics-redis.ts keeps them so): the sweep finds a gone instance's holds under it */
export const HOLDS = 'holds:';

export class Instances {
  /** this instance's id, in its lease and its open receipts' key */
  readonly me = randomHex();
  /** receipts heard answered in this turn of the event loop, taken out together at its end, and the promise of that */
  private heard: { receipts: string[]; out: Promise<unknown> } | null = null;
  /** since when this instance has reached Redis without a break (null: not now) */
  private connectedSince: number | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private client: RedisClient,
    private undo: Undo,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.beat(), LEASE_BEAT_MS).unref();
    void this.beat();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * The post under `receipt` was answered (landed or refused): no other instance may undo it once the
   * receipt is out of the open hash, which the answer's promise says. A caller is told a post landed
   * only after that: an instance killed between the two would leave a landed post for another to undo.
   */
  answered(receipt: string): Promise<unknown> {
    if (!this.heard) {
      const receipts: string[] = [];
      const out = new Promise((resolve) => setImmediate(resolve)).then(() => {
        this.heard = null;
        return onRedis(this.client.hdel(openReceipts(this.me), ...receipts));
      });
      this.heard = { receipts, out };
    }
    this.heard.receipts.push(receipt);
    return this.heard.out;
  }

  /** renew the lease and sweep the instances that are gone */
  async beat(): Promise<void> {
    try {
      await onRedis(this.client.multi().set(lease(this.me), '1', 'PX', LEASE_MS).sadd(INSTANCES, this.me).exec());
      this.connectedSince ??= Date.now();
      if (Date.now() - this.connectedSince >= LEASE_MS) await this.sweep();
    } catch {
      this.connectedSince = null;
    }
  }

  /** settle the open receipts of every instance whose lease has lapsed */
  async sweep(): Promise<void> {
    for (const id of await onRedis(this.client.smembers(INSTANCES))) {
      if (id === this.me || (await onRedis(this.client.exists(lease(id))))) continue;
      if ((await onRedis(this.client.set(`sweep:${id}`, this.me, 'PX', LEASE_MS, 'NX'))) !== 'OK') continue;
      const open = await onRedis(this.client.hgetall(openReceipts(id)));
      for (const [receipt, value] of Object.entries(open)) {
        await this.settle(receipt, value);
        await onRedis(this.client.hdel(openReceipts(id), receipt));
      }
      await this.dropHolds(id);
      await onRedis(this.client.srem(INSTANCES, id));
    }
  }

  /**
   * The holds a gone instance's calls left on balances: those calls died with it, and their holds
   * would bar the teams' balances until they expire (10 minutes). Found by their ids (each under its
   * instance's id) in every account's holds, a scan made only when an instance is gone.
   */
  private async dropHolds(id: string): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await onRedis(this.client.scan(cursor, 'MATCH', `${HOLDS}*`, 'COUNT', 500));
      cursor = next;
      for (const key of keys)
        for (const stored of await onRedis(this.client.hkeys(key))) if (stored.startsWith(`${id}:`)) await this.undo.unhold(key.slice(HOLDS.length), stored);
    } while (cursor !== '0');
  }

  private async settle(receipt: string, value: string): Promise<void> {
    const cut = value.indexOf('\n');
    const account = value.slice(0, cut);
    const entry = JSON.parse(value.slice(cut + 1)) as LedgerDraft & { id: number };
    const { id, kind, amount_micro, endpoint_id, call_id, tool_id } = entry;
    process.stderr.write(
      `svc: undoing a ${kind} of ${amount_micro} micro-USD on ${account} (call ${call_id ?? '-'}) whose instance died before hearing it landed; its caller was told nothing was charged\n`,
    );
    if (kind === 'charge') await this.undo.refund(account, id, -amount_micro);
    else await this.undo.reverse(account, { kind, amount_micro, endpoint_id, call_id, tool_id }, `${receipt}:undo`);
  }
}

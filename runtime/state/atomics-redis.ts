// Atomics over Redis, shared by every instance: ids and counters are INCRBY, a ledger post is one Lua
// script (check, move the total, append the entry), a record update is a compare-and-set retried on
// conflict, a claim is SET NX. Nothing is read, changed in JS and written back unchecked. A post is
// acknowledged once Redis has answered, which with `appendfsync always` means once its AOF is synced
// (see docs/deploy.md). Any failure to reach Redis is a StorageUnavailable (503).
import type { Storage } from 'unstorage';
import { KeyedLock } from './lock.ts';
import { nowIso } from '../util/clock.ts';
import { randomHex } from '../util/call-id.ts';
import { onRedis, type RedisClient } from './redis-client.ts';
import { withScripts, type Scripted } from './redis-scripts.ts';
import { RECORD_PREFIX } from './drivers/redis.ts';
import { StorageUnavailable } from './unavailable.ts';
import { Doubts, reversal } from './redis-doubts.ts';
import { HOLDS, Instances, openReceipts } from './redis-lease.ts';
import type { Account, Atomics, HoldAnswer, LedgerDraft, LedgerEntry } from './atomics.ts';

const CAS_TRIES = 200;
/** how long a post's receipt outlives it: the longest Redis outage after which a lost answer is still settled (receipts cost Redis memory meanwhile) */
const RECEIPT_S = 3600;
const acct = (account: string) => `acct:${account}`;
const ledgerList = (account: string) => `ledger:${account}`;
/** an account's holds: amounts (with their total) and expiries */
const holds = (account: string) => [`${HOLDS}${account}`, `holdx:${account}`];

export class RedisAtomics implements Atomics {
  private scripts: Scripted;
  /** updates of one record from this process queue here, so only other instances can conflict */
  private lock = new KeyedLock();
  private doubts: Doubts;
  /** this instance's lease, and the sweep of the doubts of instances that are gone (redis-lease.ts) */
  private instances: Instances;

  constructor(
    private client: RedisClient,
    private storage: Storage,
  ) {
    this.scripts = withScripts(client);
    this.instances = new Instances(client, {
      refund: (account, chargeId, amount) => this.refund(account, chargeId, amount),
      reverse: (account, draft, receipt) => this.send(account, reversal(draft), receipt),
      unhold: (account, stored) => onRedis(this.scripts.unhold(...holds(account), stored)),
    });
    this.doubts = new Doubts(
      RECEIPT_S * 1000,
      async (receipt) => {
        const id = await onRedis(client.get(receipt));
        return id === null ? null : Number(id);
      },
      (account, draft, receipt) => this.send(account, draft, receipt),
      (account, chargeId, amount) => this.refund(account, chargeId, amount),
      (receipt) => this.instances.answered(receipt),
    );
    this.instances.start();
  }

  /** stop renewing the lease: another instance settles what this one leaves in doubt */
  stop(): void {
    this.instances.stop();
  }

  nextId(name: string): Promise<number> {
    return this.incr(`id:${name}`, 1);
  }

  incr(name: string, by = 1): Promise<number> {
    if (!Number.isSafeInteger(by)) throw new TypeError(`counter step must be an integer, got ${by}`);
    return onRedis(this.client.incrby(`n:${name}`, by));
  }

  async counter(name: string): Promise<number> {
    return Number((await onRedis(this.client.get(`n:${name}`))) ?? 0);
  }

  async post(account: string, draft: LedgerDraft, unhold?: string): Promise<LedgerEntry | null> {
    const receipt = `receipt:${randomHex()}`;
    try {
      return await this.send(account, draft, receipt, unhold && this.stored(unhold));
    } catch (e) {
      // sent but unanswered: it may have landed, and the caller hears 503; undone later if it did
      if (e instanceof StorageUnavailable) this.doubts.add({ account, receipt, draft, at: Date.now() });
      throw e;
    }
  }

  private async send(account: string, draft: LedgerDraft, receipt: string, unhold = ''): Promise<LedgerEntry | null> {
    if (!Number.isSafeInteger(draft.amount_micro)) throw new TypeError(`amount must be integer micro-USD, got ${draft.amount_micro}`);
    const { kind, amount_micro, endpoint_id, call_id, tool_id, list_micro, reported_micro, reported_value, reported_unit } = draft;
    const at = nowIso();
    // the entry's JSON after its id, which the script puts first
    const tail = `,${JSON.stringify({ at, kind, amount_micro, endpoint_id, call_id, tool_id, list_micro, reported_micro, reported_value, reported_unit }).slice(1)}`;
    const field = kind === 'earning' ? 'earnings' : 'balance';
    const id = Number(
      await onRedis(
        this.scripts.ledgerPost(
          acct(account),
          ledgerList(account),
          receipt,
          ...holds(account),
          openReceipts(this.instances.me),
          field,
          String(amount_micro),
          tail,
          RECEIPT_S,
          unhold,
          account,
        ),
      ),
    );
    // heard: no other instance may take it for a doubt of this one, once its receipt is out (a
    // receipt that cannot be taken out is a post in doubt: post() then answers 503 and undoes it)
    if (id) await this.instances.answered(receipt);
    return id ? { id, at, kind, amount_micro, endpoint_id, call_id, tool_id, list_micro, reported_micro, reported_value, reported_unit } : null;
  }

  /** no receipt: a refund whose answer was lost is sent again, and gives only what is left */
  async refund(account: string, chargeId: number, amount: number): Promise<LedgerEntry | null> {
    if (!Number.isSafeInteger(amount) || amount < 1) throw new RangeError(`refund must be integer micro-USD ≥ 1, got ${amount}`);
    const written = await onRedis(this.scripts.refund(acct(account), ledgerList(account), `refunds:${account}`, chargeId, amount, nowIso()));
    return typeof written === 'string' ? (JSON.parse(written) as LedgerEntry) : null;
  }

  async account(account: string): Promise<Account> {
    const [balance, earnings] = await onRedis(this.client.hmget(acct(account), 'balance', 'earnings'));
    return { balance_micro: Number(balance ?? 0), earnings_micro: Number(earnings ?? 0) };
  }

  async entries(account: string, before: number | null, limit: number): Promise<{ entries: LedgerEntry[]; next: number | null }> {
    // entry n sits at list index n - 1 (the list only grows, by RPUSH in the post script)
    const top = before === null ? Number((await onRedis(this.client.hget(acct(account), 'seq'))) ?? 0) : before - 1;
    if (top < 1 || limit < 1) return { entries: [], next: null };
    const raw = await onRedis(this.client.lrange(ledgerList(account), Math.max(0, top - limit), top - 1));
    const entries = raw.reverse().map((line) => JSON.parse(line) as LedgerEntry);
    const lowest = entries.at(-1)?.id ?? 1;
    return { entries, next: lowest > 1 ? lowest : null };
  }

  get<T>(key: string): Promise<T | null> {
    return this.storage.getItem<T>(key);
  }

  update<T>(key: string, fn: (current: T | null) => T | undefined | Promise<T | undefined>): Promise<T | null> {
    return this.lock.run(key, async () => {
      for (let i = 0; i < CAS_TRIES; i++) {
        const raw = await onRedis(this.client.get(RECORD_PREFIX + key));
        const current = raw === null ? null : (JSON.parse(raw) as T);
        const next = await fn(current);
        if (next === undefined) return current;
        if (Number(await onRedis(this.scripts.compareAndSet(RECORD_PREFIX + key, raw ?? '', JSON.stringify(next))))) return next;
        await new Promise((r) => setTimeout(r, Math.random() * 5 * (i + 1)));
      }
      throw new Error(`record ${key} kept changing under ${CAS_TRIES} tries to update it`);
    });
  }

  async claim<T>(key: string, value: T): Promise<boolean> {
    return (await onRedis(this.client.set(RECORD_PREFIX + key, JSON.stringify(value), 'NX'))) === 'OK';
  }

  remove(key: string): Promise<void> {
    return this.storage.removeItem(key);
  }

  keys(prefix: string): Promise<string[]> {
    return this.storage.getKeys(prefix);
  }

  async hit(name: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const [count, resetMs] = (await onRedis(this.scripts.windowHit(`w:${name}`, windowMs))) as [number, number];
    return { count, resetMs: Math.max(0, resetMs) };
  }

  /** a hold as stored: under this instance's id, so the sweep of a gone instance drops the holds its calls left (redis-lease.ts) */
  private stored(id: string): string {
    return `${this.instances.me}:${id}`;
  }

  async hold(account: string, id: string, amount: number, ttlMs: number): Promise<HoldAnswer> {
    const [held, balance] = (await onRedis(this.scripts.hold(acct(account), ...holds(account), this.stored(id), String(amount), ttlMs))) as [number, string];
    return { held: held === 1, balance_micro: Number(balance) };
  }

  async unhold(account: string, id: string): Promise<void> {
    await onRedis(this.scripts.unhold(...holds(account), this.stored(id)));
  }

  async mark(name: string, ttlMs: number): Promise<void> {
    await onRedis(this.scripts.mark('marks', name, ttlMs));
  }

  async marks(): Promise<Map<string, number>> {
    const flat = (await onRedis(this.scripts.marks('marks'))) as Array<string | number>;
    const out = new Map<string, number>();
    for (let i = 0; i < flat.length; i += 2) out.set(String(flat[i]), Number(flat[i + 1]));
    return out;
  }

  /** every post was acknowledged by Redis before it answered; only posts whose answer was lost are checked */
  flush(): Promise<void> {
    return this.doubts.settle();
  }

  async doubtsSettled(): Promise<boolean> {
    await this.doubts.settle();
    return this.doubts.none();
  }
}

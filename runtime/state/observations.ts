// Measured behaviour per endpoint: a bounded window of the latest attempts, kept in memory (catalog
// reads are synchronous) and written behind to storage at most once a second per endpoint. Losing the
// last second of observations in a crash is acceptable; they are statistics, not acknowledged writes.
import type { Storage } from 'unstorage';
import type { ChargeDrift, Observed, PaidPerHit } from '../../language/types.ts';

export const WINDOW = 1000;
const FLUSH_MS = 1000;
const DAY_MS = 86_400_000;

export type Outcome = 'hit' | 'miss' | 'error' | 'skipped';

export interface Attempt {
  outcome: Outcome;
  ms: number;
  /** epoch milliseconds (a Date is accepted) */
  at: number | Date;
  /** where the provider's answer stated its charge: the catalog's figure and the provider's, micro-USD */
  charge?: { list_micro: number; reported_micro: number };
  /** what the caller paid for the call (a routed entry's samples), micro-USD */
  paid_micro?: number;
}

interface Series {
  /** one letter per attempt: h, m, e; oldest first */
  o: string;
  ms: number[];
  at: number[];
  /** day number (epoch days) → attempts that day, the last 31 days (a Map here: a plain object keyed by day numbers is a slow sparse array) */
  days: Map<number, number>;
  /** the latest reported charges, oldest first: the list price and the provider's figure of each (absent in series stored before reports were read) */
  rl?: number[];
  rr?: number[];
  /**
   * what each of the latest attempts cost its caller, aligned with the end of `o` (null: not
   * recorded); absent in series stored before costs were kept, shorter than `o` in one that began so
   */
  c?: Array<number | null>;
}

/** How a series is stored: the same, with the days as an object. */
type StoredSeries = Omit<Series, 'days'> & { days: Record<string, number> };

const stored = (s: Series): StoredSeries => ({ ...trim(s), days: Object.fromEntries(s.days) });

const LETTER: Record<Exclude<Outcome, 'skipped'>, string> = { hit: 'h', miss: 'm', error: 'e' };

export class Observations {
  private series = new Map<string, Series>();
  private cache = new Map<string, { day: number; observed: Observed; at: number; records: number }>();
  /** attempts recorded per endpoint in this process: tells a cached summary from a stale one */
  private records = new Map<string, number>();
  private dirty = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private bumps = 0;

  constructor(private storage: Storage) {}

  async load(): Promise<void> {
    const keys = await this.storage.getKeys('obs');
    await Promise.all(
      keys.map(async (key) => {
        const s = await this.storage.getItem<StoredSeries>(key);
        if (s && typeof s.o === 'string') {
          const days = new Map(Object.entries(s.days ?? {}).map(([d, n]) => [Number(d), n]));
          this.series.set(key.slice('obs:'.length), { ...s, days });
        }
      }),
    );
    if (keys.length) this.bumps++;
  }

  /** skipped attempts called nobody and are not samples; they only bump the version */
  record(endpointId: string, attempt: Attempt): void {
    this.bumps++;
    if (attempt.outcome === 'skipped') return;
    const at = attempt.at instanceof Date ? attempt.at.getTime() : attempt.at;
    let s = this.series.get(endpointId);
    if (!s) this.series.set(endpointId, (s = { o: '', ms: [], at: [], days: new Map() }));
    s.o += LETTER[attempt.outcome];
    s.ms.push(Math.max(0, Math.round(attempt.ms)));
    s.at.push(at);
    // from the first cost on, every attempt gets a place in `c`, so it stays aligned with the end of `o`
    if (attempt.paid_micro !== undefined || s.c) (s.c ??= []).push(attempt.paid_micro ?? null);
    // Trimmed to the window only once it holds twice as much: one copy per WINDOW attempts, not one each.
    if (s.o.length >= 2 * WINDOW) trim(s);
    const day = Math.floor(at / DAY_MS);
    const today = s.days.get(day);
    if (today === undefined) for (const d of s.days.keys()) if (d < day - 30) s.days.delete(d);
    s.days.set(day, (today ?? 0) + 1);
    if (attempt.charge) {
      (s.rl ??= []).push(attempt.charge.list_micro);
      (s.rr ??= []).push(attempt.charge.reported_micro);
    }
    this.records.set(endpointId, (this.records.get(endpointId) ?? 0) + 1);
    this.dirty.add(endpointId);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  has(endpointId: string): boolean {
    return Boolean(this.series.get(endpointId)?.o.length);
  }

  observed(endpointId: string): Observed | null {
    const s = this.series.get(endpointId);
    if (!s || !s.o.length) return null;
    // the clock read only now: most children asked about have no attempts
    const now = Date.now();
    const day = Math.floor(now / DAY_MS);
    // A summary sorts up to WINDOW latencies; under load it is reused for a moment rather than
    // recomputed after every attempt (the planner asks for every child on every call).
    const hit = this.cache.get(endpointId);
    const records = this.records.get(endpointId) ?? 0;
    if (hit?.day === day && (hit.records === records || now - hit.at < SUMMARY_TTL_MS)) return hit.observed;
    const observed = summarise(s, now);
    this.cache.set(endpointId, { day, observed, at: now, records });
    return observed;
  }

  /** attempts in the last 30 days, per endpoint */
  calls30d(now = Date.now()): Map<string, number> {
    const today = Math.floor(now / DAY_MS);
    const out = new Map<string, number>();
    for (const [id, s] of this.series) {
      let n = 0;
      for (const [d, c] of s.days) if (d > today - 30) n += c;
      if (n) out.set(id, n);
    }
    return out;
  }

  version(): number {
    return this.bumps;
  }

  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const ids = [...this.dirty];
    this.dirty.clear();
    const written = await Promise.allSettled(ids.map((id) => this.storage.setItem(`obs:${id}`, stored(this.series.get(id)!) as never)));
    // storage away (a shared backend restarting): keep those series dirty and try again a second later
    const failed = written.flatMap((w, i) => (w.status === 'rejected' ? [ids[i]] : []));
    if (failed.length) {
      for (const id of failed) this.dirty.add(id);
      this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
    }
  }
}

/** how long a summary may be reused while attempts keep arriving */
export const SUMMARY_TTL_MS = 250;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** the series cut to its last WINDOW attempts, in place */
function trim(s: Series): Series {
  if (s.o.length > WINDOW) {
    const cut = s.o.length - WINDOW;
    s.o = s.o.slice(cut);
    s.ms.splice(0, cut);
    s.at.splice(0, cut);
  }
  if (s.c && s.c.length > s.o.length) s.c.splice(0, s.c.length - s.o.length);
  if (s.rl && s.rl.length > WINDOW) {
    const cut = s.rl.length - WINDOW;
    s.rl.splice(0, cut);
    s.rr?.splice(0, cut);
  }
  return s;
}

function summarise(s: Series, now: number): Observed {
  trim(s);
  let hits = 0,
    misses = 0,
    errors = 0,
    lastOk = -1;
  for (let i = 0; i < s.o.length; i++) {
    const c = s.o[i];
    if (c === 'h') hits++;
    else if (c === 'm') misses++;
    else errors++;
    if (c !== 'e') lastOk = i;
  }
  const samples = s.o.length;
  const decided = hits + misses;
  const sorted = [...s.ms].sort((a, b) => a - b);
  return {
    samples,
    decided,
    ok_rate: samples ? (samples - errors) / samples : null,
    p50_ms: sorted.length ? percentile(sorted, 0.5) : null,
    p95_ms: sorted.length ? percentile(sorted, 0.95) : null,
    last_ok_days: lastOk >= 0 ? Math.max(0, Math.floor((now - s.at[lastOk]) / DAY_MS)) : null,
    hit_rate: decided ? hits / decided : null,
    hit_samples: hits,
    ...(s.rl?.length ? { charges: chargeDrift(s.rl, s.rr ?? []) } : {}),
    ...(s.c?.length ? paidOf(s.o, s.c) : {}),
  };
}

/** What the calls with a recorded cost paid, and per hit among them; nothing when none has one. */
function paidOf(o: string, c: Array<number | null>): { paid?: PaidPerHit } {
  const from = o.length - c.length;
  let calls = 0,
    hits = 0,
    total = 0;
  for (let i = 0; i < c.length; i++) {
    const cost = c[i];
    if (cost === null) continue;
    calls++;
    total += cost;
    if (o[from + i] === 'h') hits++;
  }
  return calls ? { paid: { calls, hits, total_micro: total, per_hit_micro: hits ? Math.round(total / hits) : null } } : {};
}

/** How the provider's reported charges compared with the list price, over the latest WINDOW reports. */
function chargeDrift(list: number[], reported: number[]): ChargeDrift {
  let differed = 0,
    above = 0,
    delta = 0,
    ratio = 0,
    ratios = 0;
  for (let i = 0; i < list.length; i++) {
    const d = reported[i] - list[i];
    if (d === 0) continue;
    differed++;
    if (d > 0) above++;
    delta += d;
    if (list[i] > 0) {
      ratio += reported[i] / list[i];
      ratios++;
    }
  }
  return {
    reports: list.length,
    differed,
    above,
    below: differed - above,
    mean_delta_micro: differed ? Math.round(delta / differed) : null,
    mean_ratio: ratios ? Math.round((ratio / ratios) * 1000) / 1000 : null,
  };
}

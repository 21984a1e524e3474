// Reviews: one per team, endpoint and month (UTC), a second replacing the first. Each endpoint-month
// is one record, so the replacement is a single atomic update; an index record names the
// endpoint-months that hold reviews, so a restart loads them all. Summaries are kept in memory for
// the catalog reads, which are synchronous.
import type { ReviewSummary } from '../../language/types.ts';
import type { Atomics } from '../state/atomics.ts';
import { now } from '../util/clock.ts';
import { summarise, type StoredReview, type Usefulness } from './summary.ts';

export interface ReviewIn {
  endpoint_id: string;
  usefulness: Usefulness;
  reason: string;
  client?: string;
}

/** one endpoint's reviews of one month; `rev` orders writes of the record */
interface Slot {
  rev: number;
  reviews: StoredReview[];
}

/** endpoint id → months (YYYY-MM) with a record */
type Index = Record<string, string[]>;

const INDEX = 'review-index';
/** bumped after every stored review: another instance's reviews are loaded when it moves */
const WRITES = 'review-writes';
const FOLLOW_MS = 2000;
const slotKey = (endpointId: string, month: string) => `review:${endpointId}:${month}`;

/** YYYY-MM of an instant, in UTC */
export const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);

export class Reviews {
  private slots = new Map<string, Map<string, Slot>>();
  private summaries = new Map<string, ReviewSummary | undefined>();
  private bumps = 0;
  private seenWrites = -1;

  constructor(private atomics: Atomics) {}

  /** load again whenever reviews were stored anywhere (several instances on one shared backend) */
  follow(): void {
    setInterval(() => void this.catchUp().catch(() => {}), FOLLOW_MS).unref(); // storage away: next round
  }

  async catchUp(): Promise<void> {
    const writes = await this.atomics.counter(WRITES);
    if (writes !== this.seenWrites) {
      await this.load();
      this.seenWrites = writes;
    }
  }

  async load(): Promise<void> {
    const index = (await this.atomics.get<Index>(INDEX)) ?? {};
    await Promise.all(Object.entries(index).flatMap(([endpointId, months]) => months.map(async (month) => {
      const slot = await this.atomics.get<Slot>(slotKey(endpointId, month));
      if (slot) this.keep(endpointId, month, slot);
    })));
  }

  /** store the team's review of this month (replacing its earlier one); stored before it answers */
  async submit(teamId: number, input: ReviewIn): Promise<{ review: StoredReview; replaced: boolean }> {
    const at = now();
    const month = monthOf(at);
    const endpointId = input.endpoint_id;
    // indexed before the record is written, so a record is never left out of a restart's load
    if (!this.slots.get(endpointId)?.has(month)) {
      await this.atomics.update<Index>(INDEX, (index) => {
        const months = index?.[endpointId] ?? [];
        return months.includes(month) ? undefined : { ...index, [endpointId]: [...months, month] };
      });
    }
    let review!: StoredReview;
    let replaced = false;
    const slot = await this.atomics.update<Slot>(slotKey(endpointId, month), async (current) => {
      // the id is taken inside the update, so the review that stands is always the later one
      review = { id: await this.atomics.nextId('review'), team_id: teamId, usefulness: input.usefulness, reason: input.reason, client: input.client ?? '', month, at: new Date(at).toISOString() };
      const others = (current?.reviews ?? []).filter((r) => r.team_id !== teamId);
      replaced = others.length < (current?.reviews.length ?? 0);
      return { rev: (current?.rev ?? 0) + 1, reviews: [...others, review] };
    });
    this.keep(endpointId, month, slot!);
    // stored already: a bump that fails only delays other instances until the next review
    await this.atomics.incr(WRITES).catch(() => {});
    return { review, replaced };
  }

  summary(endpointId: string): ReviewSummary | undefined {
    return this.summaries.get(endpointId);
  }

  /** bumps whenever a summary may have changed */
  version(): number {
    return this.bumps;
  }

  private keep(endpointId: string, month: string, slot: Slot): void {
    let months = this.slots.get(endpointId);
    if (!months) this.slots.set(endpointId, (months = new Map()));
    // updates of one record may finish out of order; the one written last has the higher rev
    if ((months.get(month)?.rev ?? 0) >= slot.rev) return;
    months.set(month, slot);
    this.summaries.set(endpointId, summarise([...months.values()].flatMap((s) => s.reviews)));
    this.bumps++;
  }
}

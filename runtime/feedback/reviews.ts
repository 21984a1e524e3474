// Reviews: one per team, endpoint and month (UTC), a second replacing the first. Each endpoint-month
// is one record, so the replacement is a single atomic update; an index record names the
// endpoint-months that hold reviews, so a restart loads them all. Summaries are kept in memory for
// the catalog reads, which are synchronous. Each team's own reviews are also indexed per team
// (team-index.ts), so the team lists them without a read of every endpoint's.
import type { ReviewSummary } from '../../language/types.ts';
import type { Atomics } from '../state/atomics.ts';
import { now } from '../util/clock.ts';
import { summarise, type StoredReview, type Usefulness } from './summary.ts';
import { byTeam, indexRefs, pageOfRefs } from './team-index.ts';

export interface ReviewIn {
  endpoint_id: string;
  usefulness: Usefulness;
  reason: string;
  client?: string;
}

/** a review as its team lists it */
export type OwnReview = Omit<StoredReview, 'team_id'> & { endpoint_id: string };

/** one endpoint's reviews of one month; `rev` orders writes of the record */
interface Slot {
  rev: number;
  reviews: StoredReview[];
}

/** endpoint id → months (YYYY-MM) with a record */
type Index = Record<string, string[]>;

/** a slot as read from storage */
interface Loaded {
  endpointId: string;
  month: string;
  slot: Slot;
}

const INDEX = 'review-index';
/** bumped after every stored review: another instance's reviews are loaded when it moves */
const WRITES = 'review-writes';
const slotKey = (endpointId: string, month: string) => `review:${endpointId}:${month}`;
/** the endpoint id of a slot key (an id may hold colons, hub:<tool_id>; the month holds none) */
const endpointOf = (key: string) => key.slice('review:'.length, key.lastIndexOf(':'));

/** YYYY-MM of an instant, in UTC */
export const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);

export class Reviews {
  private slots = new Map<string, Map<string, Slot>>();
  private summaries = new Map<string, ReviewSummary | undefined>();
  private bumps = 0;
  private seenWrites = -1;

  constructor(private atomics: Atomics) {}

  /** load again when reviews were stored anywhere since (several instances on one shared backend) */
  async catchUp(): Promise<void> {
    const writes = await this.atomics.counter(WRITES);
    if (writes !== this.seenWrites) {
      await this.load();
      this.seenWrites = writes;
    }
  }

  /**
   * Every stored slot; the reviews in it this process has not seen are put into their teams' indexes
   * first. At a start that is every review (the migration of the last release's, which it stored
   * without a team index); later, those another instance stored, indexed again (no change) or not at
   * all (the last release's instance, during a rolling upgrade).
   */
  async load(): Promise<void> {
    const index = (await this.atomics.get<Index>(INDEX)) ?? {};
    const read = await Promise.all(
      Object.entries(index).flatMap(([endpointId, months]) =>
        months.map(async (month) => ({ endpointId, month, slot: await this.atomics.get<Slot>(slotKey(endpointId, month)) })),
      ),
    );
    await this.absorb(read.filter((r): r is Loaded => r.slot !== null));
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
      review = {
        id: await this.atomics.nextId('review'),
        team_id: teamId,
        usefulness: input.usefulness,
        reason: input.reason,
        client: input.client ?? '',
        month,
        at: new Date(at).toISOString(),
      };
      const others = (current?.reviews ?? []).filter((r) => r.team_id !== teamId);
      replaced = others.length < (current?.reviews.length ?? 0);
      return { rev: (current?.rev ?? 0) + 1, reviews: [...others, review] };
    });
    // before the answer: an acknowledged review is listed (a lost write here is made good by the next load's)
    await this.absorb([{ endpointId, month, slot: slot! }]);
    // stored already: a bump that fails only delays other instances until the next review
    await this.atomics.incr(WRITES).catch(() => {});
    return { review, replaced };
  }

  /** the team's reviews, newest first, a page at a time below `before` (the previous page's `next`) */
  async list(teamId: number, before: number | null): Promise<{ rows: OwnReview[]; next: number | null }> {
    const { refs, next } = await pageOfRefs(this.atomics, 'reviews', teamId, before);
    const slots = await Promise.all(refs.map((r) => this.atomics.get<Slot>(r.key)));
    const rows = slots.flatMap((slot, i) => {
      const found = slot?.reviews.find((r) => r.team_id === teamId);
      if (!found) return [];
      const { team_id, ...rest } = found;
      void team_id;
      return [{ ...rest, endpoint_id: endpointOf(refs[i].key) }];
    });
    return { rows, next };
  }

  /**
   * Slots read from storage, kept where newer than this process's, once the reviews they hold that
   * the kept ones do not are in their teams' indexes (so a slot that is kept has every review listed;
   * a failed index write leaves the slot to the next load).
   */
  private async absorb(read: Loaded[]): Promise<void> {
    const fresh = read.filter(({ endpointId, month, slot }) => (this.slots.get(endpointId)?.get(month)?.rev ?? 0) < slot.rev);
    const unseen = fresh.flatMap(({ endpointId, month, slot }) => {
      const seen = new Set(
        this.slots
          .get(endpointId)
          ?.get(month)
          ?.reviews.map((r) => r.id),
      );
      return slot.reviews.filter((r) => !seen.has(r.id)).map((r) => ({ r, key: slotKey(endpointId, month) }));
    });
    for (const [teamId, refs] of byTeam(
      unseen,
      (x) => x.r.team_id,
      (x) => ({ id: x.r.id, key: x.key }),
    ))
      await indexRefs(this.atomics, 'reviews', teamId, refs);
    for (const { endpointId, month, slot } of fresh) this.keep(endpointId, month, slot);
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

// Feedback records: what a team tells svc (a bug, wrong data, a missing provider…), stored under an
// integer id from the atomic counter, so ids are unique and increasing across instances, and
// readable back by the submitting team only, one at a time or as its listing (team-index.ts).
import type { Atomics } from '../state/atomics.ts';
import { now } from '../util/clock.ts';
import type { FEEDBACK_KINDS } from './kinds.ts';
import { byTeam, indexRefs, pageOfRefs } from './team-index.ts';

export interface FeedbackIn {
  kind: (typeof FEEDBACK_KINDS)[number];
  message: string;
  endpoint_id?: string;
  capability?: string;
  context?: Record<string, unknown>;
}

/** What the team reads back. Nothing moves a record on from `received` yet. */
export interface Feedback extends FeedbackIn {
  id: number;
  status: 'received';
  created_at: string;
}

interface StoredFeedback extends Feedback {
  team_id: number;
}

const key = (id: number) => `feedback:${id}`;
/** the counter nextId('feedback') draws from */
const ID_COUNTER = 'id:feedback';
/** how long an id drawn from the counter may go without its record before catchUp stops looking (a submit that died) */
const RECORD_GRACE_MS = 60_000;

export class FeedbackStore {
  /** ids up to this one were drawn before the last catchUp, or before the start's indexAll */
  private drawn = 0;
  /** ids drawn whose record catchUp has not seen yet, with when it first looked */
  private unseen = new Map<number, number>();

  constructor(private atomics: Atomics) {}

  /** stored before it answers: an acknowledged record survives a crash */
  async submit(teamId: number, input: FeedbackIn): Promise<Feedback> {
    const id = await this.atomics.nextId('feedback');
    // indexed first: a stored record is always listed (a listing skips an id whose record is not there)
    await indexRefs(this.atomics, 'feedback', teamId, [{ id, key: key(id) }]);
    const record: StoredFeedback = { id, team_id: teamId, ...input, status: 'received', created_at: new Date(now()).toISOString() };
    // a fresh id is never taken; claim keeps even a broken counter from overwriting a record
    if (!(await this.atomics.claim(key(id), record))) throw new Error(`feedback id ${id} is taken: the counter is behind the records`);
    return visible(record);
  }

  /** the record when `teamId` submitted it, else null (another team's record is not there for it) */
  async get(teamId: number, id: number): Promise<Feedback | null> {
    const record = await this.atomics.get<StoredFeedback>(key(id));
    return record && record.team_id === teamId ? visible(record) : null;
  }

  /** the team's records, newest first, a page at a time below `before` (the previous page's `next`) */
  async list(teamId: number, before: number | null): Promise<{ rows: Feedback[]; next: number | null }> {
    const { refs, next } = await pageOfRefs(this.atomics, 'feedback', teamId, before);
    const records = await Promise.all(refs.map((r) => this.atomics.get<StoredFeedback>(r.key)));
    return { rows: records.filter((r): r is StoredFeedback => r?.team_id === teamId).map(visible), next };
  }

  /**
   * Migration of the last release's data: its records were written without the team's index. Every
   * record is put into its team's (idempotent, so every start runs it; what an older instance writes
   * later during a rolling upgrade, catchUp indexes). Answers how many were read.
   */
  async indexAll(): Promise<number> {
    this.drawn = await this.atomics.counter(ID_COUNTER);
    const keys = await this.atomics.keys('feedback');
    await this.indexRecords(await Promise.all(keys.map((k) => this.atomics.get<StoredFeedback>(k))));
    return keys.length;
  }

  /**
   * On storage several instances share: index the records stored since the last round by an instance
   * that does not index them (the last release's, during a rolling upgrade), so they are listed
   * without waiting for a restart. Reads each id drawn since, once stored; this instance's own are
   * indexed already, and indexing them again changes nothing.
   */
  async catchUp(): Promise<void> {
    const at = now();
    const drawn = await this.atomics.counter(ID_COUNTER);
    for (let id = this.drawn + 1; id <= drawn; id++) this.unseen.set(id, at);
    this.drawn = Math.max(this.drawn, drawn);
    const ids = [...this.unseen.keys()];
    const records = await Promise.all(ids.map((id) => this.atomics.get<StoredFeedback>(key(id))));
    await this.indexRecords(records);
    ids.forEach((id, i) => {
      if (records[i] || at - this.unseen.get(id)! >= RECORD_GRACE_MS) this.unseen.delete(id);
    });
  }

  private async indexRecords(records: Array<StoredFeedback | null>): Promise<void> {
    const stored = records.filter((r): r is StoredFeedback => typeof r?.team_id === 'number' && typeof r.id === 'number');
    for (const [teamId, refs] of byTeam(
      stored,
      (r) => r.team_id,
      (r) => ({ id: r.id, key: key(r.id) }),
    ))
      await indexRefs(this.atomics, 'feedback', teamId, refs);
  }
}

function visible({ team_id, ...record }: StoredFeedback): Feedback {
  void team_id;
  return record;
}

// Feedback records: what a team tells svc (a bug, wrong data, a missing provider…), stored under an
// integer id from the atomic counter, so ids are unique and increasing across instances, and
// readable back by the submitting team only.
import type { Atomics } from '../state/atomics.ts';
import type { FEEDBACK_KINDS } from '../request-schemas.ts';
import { now } from '../util/clock.ts';

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

export class FeedbackStore {
  constructor(private atomics: Atomics) {}

  /** stored before it answers: an acknowledged record survives a crash */
  async submit(teamId: number, input: FeedbackIn): Promise<Feedback> {
    const id = await this.atomics.nextId('feedback');
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
}

function visible({ team_id, ...record }: StoredFeedback): Feedback {
  void team_id;
  return record;
}

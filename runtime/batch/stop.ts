// A running batch asked to stop (POST {proxy}/{capability}/batch/{batch_id}/stop, what `svc batch`
// sends on Ctrl-C) starts no more rows; the rows in flight finish, are charged and answered on the
// batch's own stream. The ask may reach another instance than the one running the batch, so it is an
// expiring mark every instance sees, and a running batch looks for its own while it runs.
import type { Atomics } from '../state/index.ts';

/** how often a running batch looks for its mark: a Ctrl-C is answered within about this */
const LOOK_EVERY_MS = 100;
/** longer than any batch waits between its looks; the mark only has to outlive the batch's next look */
const MARK_TTL_MS = 10 * 60_000;

const markOf = (teamId: number, batchId: string) => `batch-stop ${teamId}:${batchId}`;

/** ask the team's batch to stop (a batch of another team, or one that ended, never sees the mark) */
export function askToStop(atomics: Atomics, teamId: number, batchId: string): Promise<void> {
  return atomics.mark(markOf(teamId, batchId), MARK_TTL_MS);
}

/** aborted once the batch is asked to stop; looks until `done` aborts */
export function stopAsked(atomics: Atomics, teamId: number, batchId: string, done: AbortSignal): AbortSignal {
  const asked = new AbortController();
  const name = markOf(teamId, batchId);
  const look = setInterval(() => {
    atomics.marks().then(
      (marks) => {
        if (marks.has(name)) asked.abort();
      },
      () => {},
    ); // storage away: look again next time
  }, LOOK_EVERY_MS);
  look.unref();
  const end = () => clearInterval(look);
  done.addEventListener('abort', end, { once: true });
  asked.signal.addEventListener('abort', end, { once: true });
  return asked.signal;
}

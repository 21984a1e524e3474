// Shared storage that does not answer (Redis down, restarting, unreachable). Raised instead of the
// client's own error so the error shaper can answer 503 with Retry-After: the request did nothing
// that was acknowledged, and the same request may be sent again once storage is back.
import { rootCause } from '../util/fail.ts';

export class StorageUnavailable extends Error {
  // no `cause`: the error shaper looks at the bottom of the cause chain, and this is the bottom that matters
  constructor(reason: unknown, what = 'shared storage') {
    super(`${what} does not answer (${reason instanceof Error ? reason.message : String(reason)})`);
  }
}

/** seconds a caller is told to wait before retrying */
export const STORAGE_RETRY_AFTER_S = 2;

/** what a caller is told when storage did not answer (a single call's 503, a batch row's) */
export const STORAGE_OUTAGE_DETAIL =
  'Storage is not answering for a moment, so svc could not finish this request; nothing was charged. Retry after the time given.';

/** whether `error` is shared storage not answering (however it was wrapped) */
export function isStorageOutage(error: unknown): boolean {
  return rootCause(error) instanceof StorageUnavailable;
}

// Shared storage that does not answer (Redis down, restarting, unreachable). Raised instead of the
// client's own error so the error shaper can answer 503 with Retry-After: the request did nothing
// that was acknowledged, and the same request may be sent again once storage is back.
export class StorageUnavailable extends Error {
  // no `cause`: the error shaper looks at the bottom of the cause chain, and this is the bottom that matters
  constructor(reason: unknown, what = 'shared storage') {
    super(`${what} does not answer (${reason instanceof Error ? reason.message : String(reason)})`);
  }
}

/** seconds a caller is told to wait before retrying */
export const STORAGE_RETRY_AFTER_S = 2;

// The id of one paid call (routed, pass-through, batch row, hub run): sent back as X-Svc-Call-Id and
// `_svc.call_id`, and written on every ledger row the call causes, so a charge can be traced to it.
// The money path's own ids (a hold's, a Redis post's receipt) are drawn the same way.
import { randomUUID } from 'node:crypto';

export const CALL_ID_HEADER = 'x-svc-call-id';

/**
 * A random UUID's 32 hex digits (122 random bits). randomUUID draws from entropy Node fetches for
 * many ids at once; randomBytes(16) went to the generator for each id, two of them per routed call
 * (about 6% of a routed call's CPU, bench/README.md).
 */
export const randomHex = (): string => randomUUID().replaceAll('-', '');

export const newCallId = (): string => `call_${randomHex()}`;

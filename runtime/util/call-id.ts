// The id of one paid call (routed, pass-through, batch row, hub run): sent back as X-Svc-Call-Id and
// `_svc.call_id`, and written on every ledger row the call causes, so a charge can be traced to it.
// The money path's own ids (a hold's, a Redis post's receipt) are drawn the same way.
import { randomBytes } from 'node:crypto';

export const CALL_ID_HEADER = 'x-svc-call-id';

/** 16 random bytes as 32 hex digits */
export const randomHex = (): string => randomBytes(16).toString('hex');

export const newCallId = (): string => `call_${randomHex()}`;

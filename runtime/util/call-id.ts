// The id of one paid call (routed, pass-through, batch row, hub run): sent back as X-Svc-Call-Id and
// `_svc.call_id`, and written on every ledger row the call causes, so a charge can be traced to it.
import { randomUUID } from 'node:crypto';

export const CALL_ID_HEADER = 'x-svc-call-id';

export function newCallId(): string {
  return `call_${randomUUID().replaceAll('-', '')}`;
}

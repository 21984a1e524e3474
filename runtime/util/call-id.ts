// The id of one paid call (routed, pass-through, batch row, hub run): sent back as X-Svc-Call-Id and
// `_svc.call_id`, and written on every ledger row the call causes, so a charge can be traced to it.
import { randomBytes } from 'node:crypto';

export const CALL_ID_HEADER = 'x-svc-call-id';

/** 16 random bytes per id, drawn from a block of 256 ids: one call into the CSPRNG per block, not per id */
const BLOCK = 16 * 256;
let block = Buffer.alloc(0);
let at = BLOCK;

export function newCallId(): string {
  if (at >= BLOCK) {
    block = randomBytes(BLOCK);
    at = 0;
  }
  at += 16;
  return `call_${block.toString('hex', at - 16, at)}`;
}

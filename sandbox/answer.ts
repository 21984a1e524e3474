// The data answer of one operation: a hit or a miss for a routed child, the example for anything else,
// and what the provider would bill for it. Async children are answered in jobs.ts / async.ts.
import type { CapabilitySrc } from '../language/types.ts';
import { countRows, mapOutput } from '../language/map-response.ts';
import { getPath } from '../language/json-path.ts';
import { chargeFor } from './billing.ts';
import { deriveFacts } from './facts.ts';
import { hash32 } from './hash.ts';
import { buildHit } from './hit.ts';
import { buildMiss } from './miss.ts';
import type { ReadSubject } from './subject.ts';
import type { Charge, SandboxOperation } from './types.ts';

export interface Answered {
  status: number;
  body: unknown;
  charge: Charge | null;
  /** headers the answer carries besides its content type (a charge stated in a header: reported.ts) */
  headers?: Record<string, string>;
}

export interface DataCall {
  op: SandboxOperation;
  cap: CapabilitySrc | null;
  miss: boolean;
  read: ReadSubject;
  /** the example record to start from (an async child's is cut to its result path) */
  base: unknown;
  /** rows the request submits, for an answer that lists none (rows-sent.ts) */
  sent: number | null;
}

export function subjectHash(op: SandboxOperation, read: ReadSubject): number {
  return hash32(`${op.endpoint_id} ${JSON.stringify(Object.entries(read.subject).sort())}`);
}

function childAnswer(call: DataCall, cap: CapabilitySrc): Answered {
  const { op, read } = call;
  const response = op.response!;
  if (call.miss) {
    const m = buildMiss(cap, op.miss, response, call.base);
    return { ...m, charge: chargeFor(op, 'miss', 0) };
  }
  const body = buildHit({ cap, response, base: call.base, facts: deriveFacts(read.subject), hash: subjectHash(op, read), limit: read.limit });
  const rows = countRows(cap, response, body, mapOutput(cap, response, body));
  return { status: 200, body, charge: chargeFor(op, 'hit', rows) };
}

function plainAnswer(call: DataCall): Answered {
  const { op } = call;
  if (call.miss && op.miss) return { ...buildMiss(null, op.miss, op.response, call.base), charge: chargeFor(op, 'miss', 0) };
  const body = call.base ?? {};
  // a declared row list is counted as it stands (none there: no rows); else a list body, else the rows sent
  const declared = op.page_size?.rows;
  const listed = declared ? getPath(body, declared) : body;
  const rows = Array.isArray(listed) ? listed.length : declared ? 0 : (call.sent ?? 1);
  return { status: 200, body: structuredClone(body), charge: chargeFor(op, 'hit', rows) };
}

export function answerData(call: DataCall): Answered {
  return call.cap && call.op.response ? childAnswer(call, call.cap) : plainAnswer(call);
}

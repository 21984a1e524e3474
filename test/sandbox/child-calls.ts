// Calling one routed child through the sandbox as the router would, and reading the answer as the
// router does (miss status, miss conditions, then the contract).
import type { CapabilitySrc, OperationRuntime, RuntimeCatalog } from '../../language/types.ts';
import { countRows, isContractMiss, mapOutput } from '../../language/map-response.ts';
import { chargeMicro } from '../../language/prices.ts';
import { getPath } from '../../language/json-path.ts';
import type { ChildSource } from './catalogs.ts';
import { buildCall, send, type ProviderCall } from './provider-request.ts';
import { pollRequest } from '../../runtime/router/poll.ts';
import { sampleValue, steered } from './samples.ts';

export type Verdict = 'hit' | 'miss' | 'error';

export interface ChildAnswer {
  status: number;
  json: unknown;
  /** the record the response mapping reads (the async result, else the body) */
  record: unknown;
  verdict: Verdict;
  output: Record<string, unknown>;
  rows: number;
}

export function identityOf(cap: CapabilitySrc, src: ChildSource | undefined): string[] {
  const mapped = new Set((src?.request?.map ?? []).map((m) => m.from));
  return cap.identity.find((set) => set.every((f) => mapped.has(f))) ?? src?.accepts[0] ?? cap.identity[0];
}

export function subjectFor(cap: CapabilitySrc, src: ChildSource | undefined, word?: string, limit = 3): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const f of identityOf(cap, src)) values[f] = word ? steered(f, sampleValue(cap, f), word) : sampleValue(cap, f);
  if (cap.filters?.limit) values.limit = limit;
  return values;
}

export function verdictOf(op: OperationRuntime, cap: CapabilitySrc, status: number, record: unknown): Verdict {
  if (op.miss?.status?.includes(status)) return 'miss';
  if (status >= 300 || record === undefined) return 'error';
  const when = (op.miss?.when ?? []).some((w) => w.in.some((v) => JSON.stringify(getPath(record, w.path) ?? null) === JSON.stringify(v)));
  if (when) return 'miss';
  return isContractMiss(cap, mapOutput(cap, op.response!, record)) ? 'miss' : 'hit';
}

export class ChildCaller {
  constructor(
    readonly base: string,
    readonly runtime: RuntimeCatalog,
    readonly keys: Record<string, string>,
  ) {}

  call(op: OperationRuntime, src: ChildSource | undefined, values: Record<string, unknown>, key?: string): ProviderCall {
    return buildCall(this.runtime.providers[op.provider], op, src?.request ?? null, values, key ?? this.keys[op.provider]);
  }

  /** Submit, then poll an async child until it leaves `progress`; returns every status seen. */
  async poll(op: OperationRuntime, submitted: unknown): Promise<{ statuses: unknown[]; status: number; json: unknown }> {
    const a = op.async!;
    const pollOp = this.runtime.operations[a.poll.endpoint];
    const id = String(getPath(submitted, a.id_from));
    const statuses: unknown[] = [getPath(submitted, a.status.path)];
    for (let i = 0; i < 5; i++) {
      const call = buildCall(this.runtime.providers[op.provider], pollOp, pollRequest(a), { job: id }, this.keys[op.provider]);
      for (const [k, p] of Object.entries(pollOp.input.queryParams ?? {}))
        if (p.required && !call.query.has(k)) call.query.set(k, String(p.default ?? p.example ?? ''));
      const res = await send(this.base, op.provider, call);
      const st = res.status === 200 ? getPath(res.json, a.status.path) : undefined;
      statuses.push(st);
      if (res.status !== 200 || !a.status.progress.includes(String(st))) return { statuses, status: res.status, json: res.json };
    }
    throw new Error(`${op.endpoint_id}: job never finished`);
  }

  async answer(
    op: OperationRuntime,
    cap: CapabilitySrc,
    src: ChildSource | undefined,
    word?: string,
    limit = 3,
  ): Promise<ChildAnswer & { statuses?: unknown[] }> {
    const first = await send(this.base, op.provider, this.call(op, src, subjectFor(cap, src, word, limit)));
    let { status, json } = first;
    let statuses: unknown[] | undefined;
    if (op.async && status === 200) ({ statuses, status, json } = await this.poll(op, json));
    const record = op.async && status === 200 ? (op.async.result.path ? getPath(json, op.async.result.path) : json) : json;
    const verdict = verdictOf(op, cap, status, record);
    const output = record && typeof record === 'object' ? mapOutput(cap, op.response!, record) : {};
    const rows = verdict === 'hit' ? countRows(cap, op.response!, record, output) : 0;
    return { status, json, record, verdict, output, rows, statuses };
  }
}

/** Whether a steering word put into the subject survives this child's request mapping (a transform
 * such as `post_id` keeps only digits, so such children cannot be steered through that field). */
export function carries(caller: ChildCaller, op: OperationRuntime, cap: CapabilitySrc, src: ChildSource | undefined, word: string): boolean {
  const call = caller.call(op, src, subjectFor(cap, src, word));
  let text = `${call.path} ${[...call.query.values()].join(' ')} ${call.body ?? ''}`;
  try {
    text = decodeURIComponent(text);
  } catch {
    /* keep */
  }
  return text.toLowerCase().includes(word);
}

/** What the provider bills for one answer, by its billing rule as the router charges it (null: not billed). */
export function expectedCharge(op: OperationRuntime, verdict: Verdict, rows: number): number | null {
  const type = op.cost?.type ?? 'free';
  if (verdict === 'error') return null;
  if (verdict === 'miss' && !(op.bills_miss && (type === 'per_call' || type === 'per_result'))) return null;
  return chargeMicro(op, verdict, rows);
}

// One batch request to a running svc, its NDJSON answer read line by line as rows finish; and the
// request that asks a running batch to stop (what Ctrl-C sends).
import { CliFailure, EXIT } from './fail.ts';
import { send } from './http.ts';
import type { SvcTarget } from './target.ts';
import type { BatchTarget } from './batch-target.ts';

/** a row line, the stopping line or the summary line of a batch answer (docs/batch.md) */
export interface Line {
  event?: 'summary' | 'stopping';
  id: number;
  status?: number;
  output?: Record<string, unknown>;
  detail?: unknown;
  skipped?: 'budget';
  cost_micro?: number;
  stopped?: 'disconnected' | 'asked';
  in_flight?: number[];
  _svc?: { call_id?: string; served_by: string | null; cost_micro: number; stopped?: string };
}

export interface StreamControl {
  /** the batch's id (its X-Svc-Call-Id), as soon as its answer starts */
  onOpen(batchId: string): void;
  /** aborting it drops the connection: the server starts no more rows, and lines not read are lost */
  signal: AbortSignal;
}

export async function streamBatch(
  target: SvcTarget,
  what: Pick<BatchTarget, 'path' | 'line'>,
  rows: Array<{ id: number; subject: Record<string, unknown> }>,
  headers: Record<string, string>,
  onLine: (line: Line) => void,
  control: StreamControl,
): Promise<void> {
  const res = await fetch(`${target.url}${what.path}/batch`, {
    method: 'POST',
    signal: control.signal,
    headers: { 'x-svc-token': target.token, 'content-type': 'application/x-ndjson', ...headers },
    body: rows.map((r) => JSON.stringify({ id: r.id, ...what.line(r.subject) })).join('\n'),
  }).catch((e: Error) => {
    if (control.signal.aborted) throw e;
    throw new CliFailure(`Cannot reach ${target.url} (${e.message}); is the server running, and is SVC_URL right?`, EXIT.unreachable);
  });
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => ({}))) as { detail?: unknown };
    const detail = Array.isArray(body.detail) ? body.detail.map((d: { msg: string }) => d.msg).join('; ') : body.detail;
    throw new CliFailure(`svc refused the batch (${res.status}): ${detail ?? 'no detail'}`, res.status >= 500 ? EXIT.server : EXIT.refused, body);
  }
  control.onOpen(res.headers.get('x-svc-call-id') ?? '');
  const decoder = new TextDecoder();
  let buffered = '';
  const reader = res.body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    buffered += decoder.decode(r.value, { stream: true });
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const l of lines) if (l.trim()) onLine(JSON.parse(l) as Line);
  }
  if (buffered.trim()) onLine(JSON.parse(buffered) as Line);
}

/** ask the running batch to start no more rows: null once asked, else why the ask did not go through */
export async function askStop(target: SvcTarget, path: string, batchId: string): Promise<string | null> {
  try {
    const res = await send(`${target.url}${path}/batch/${batchId}/stop`, { method: 'POST', headers: { 'x-svc-token': target.token }, timeoutMs: 10_000 });
    return res.ok ? null : `svc answered ${res.status} to the stop`;
  } catch (e) {
    return (e as Error).message;
  }
}

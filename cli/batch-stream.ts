// One batch request to a running svc, its NDJSON answer read line by line as rows finish.
import { CliFailure } from './fail.ts';
import type { SvcTarget } from './target.ts';

/** a row line or the summary line of a batch answer (docs/batch.md) */
export interface Line {
  event?: 'summary';
  id: number;
  status?: number;
  output?: Record<string, unknown>;
  cost_micro?: number;
  _svc?: { served_by: string | null; cost_micro: number; stopped?: string };
}

export async function streamBatch(target: SvcTarget, capabilityPath: string, rows: Array<{ id: number; subject: Record<string, unknown> }>, headers: Record<string, string>, onLine: (line: Line) => void): Promise<void> {
  const res = await fetch(`${target.url}${capabilityPath}/batch`, {
    method: 'POST',
    headers: { 'x-svc-token': target.token, 'content-type': 'application/x-ndjson', ...headers },
    body: rows.map((r) => JSON.stringify({ id: r.id, ...r.subject })).join('\n'),
  }).catch((e: Error) => {
    throw new CliFailure(`cannot reach ${target.url}: ${e.message}`);
  });
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => ({}))) as { detail?: unknown };
    const detail = Array.isArray(body.detail) ? body.detail.map((d: { msg: string }) => d.msg).join('; ') : body.detail;
    throw new CliFailure(`svc refused the batch (${res.status}): ${detail ?? 'no detail'}`);
  }
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

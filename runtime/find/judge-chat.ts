// A judge behind an OpenAI-compatible chat completions endpoint (SVC_JUDGE_URL, SVC_JUDGE_KEY,
// SVC_JUDGE_MODEL). It gets the job, what the caller has and wants as the catalog reads it, and the
// candidates with what each takes and returns; it must answer {kept, verdict} as JSON.
import type { CapabilityDoc } from '../../language/types.ts';
import type { Candidate, Judge, Judgement } from './types.ts';
import { plainText } from '../util/plain-text.ts';

const SYSTEM =
  'You pick API operations for a job. `has` and `wants` are what the caller has and wants, as read from the job; each candidate says what it takes (identity sets: any one set is enough) and returns, where known. Answer only JSON: {"kept":[{"endpoint_id":"…","why":"takes …, returns …"}],"verdict":"…"}. Keep only candidates that can take what the caller has and return what they want; endpoint_id must be one of the candidates. Say so when the job needs two operations chained, or when none can do it.';

export function chatJudge(url: string, opts: { key?: string; model?: string }, docs: CapabilityDoc[]): Judge {
  const contract = new Map(docs.map((d) => [d.capability, { takes: d.identity, returns: d.output }]));
  return async ({ q, reading }, candidates, signal) => {
    const { request } = await import('undici'); // loaded with the first judgement, not at start
    const res = await request(url, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json', ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}) },
      body: JSON.stringify({
        model: opts.model ?? 'gpt-4o-mini',
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: SYSTEM },
          {
            role: 'user',
            content: JSON.stringify({
              job: q,
              has: reading.has,
              wants: reading.wants,
              candidates: candidates.map((c) => ({ ...judgeRow(c), ...contract.get(c.capability) })),
            }),
          },
        ],
      }),
    });
    if (res.statusCode >= 300) throw new Error(`judge answered ${res.statusCode}`);
    const content = ((await res.body.json()) as { choices?: Array<{ message?: { content?: string } }> }).choices?.[0]?.message?.content ?? '';
    return sanitize(JSON.parse(content) as Partial<Judgement>, candidates);
  };
}

/**
 * What the judge reads of a candidate: the facts it picks by, with a maker's words (a hub tool's name
 * and maker) as plain capped text, and nothing else a row carries: its reviews are teams' words, which
 * a model would read as instructions as readily as an agent would.
 */
function judgeRow(c: Candidate): Omit<Candidate, 'score'> {
  const { endpoint_id, capability, name, provider, kind, usd, unit, capabilities } = c;
  return { endpoint_id, capability, name: plainText(name, 80), provider: plainText(provider, 64), kind, usd, unit, capabilities };
}

/** Only ids that were candidates, only strings: a judge's answer is data, never trusted as-is. */
function sanitize(j: Partial<Judgement>, candidates: Candidate[]): Judgement {
  const ids = new Set(candidates.map((c) => c.endpoint_id));
  const kept = (Array.isArray(j.kept) ? j.kept : [])
    .filter((k) => k && typeof k.endpoint_id === 'string' && ids.has(k.endpoint_id))
    .map((k) => ({ endpoint_id: k.endpoint_id, why: String(k.why ?? '').slice(0, 500) }));
  return { kept, verdict: String(j.verdict ?? '').slice(0, 1000) };
}

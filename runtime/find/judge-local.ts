// The default judge: deterministic, instant, no network. Keeps candidates that match every word of
// the job description, or else the best-scoring ones, and says why in plain words.
import type { Judge } from './types.ts';

const words = (s: string) => s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1);

export const localJudge: Judge = async (q, candidates) => {
  const wanted = [...new Set(words(q))];
  if (!wanted.length || !candidates.length) return { kept: [], verdict: 'Nothing to judge: describe the job in a few words.' };
  const matched = candidates.map((c) => {
    const hay = `${c.name} ${c.capability} ${c.provider}`.toLowerCase();
    return { c, found: wanted.filter((w) => hay.includes(w)) };
  });
  const complete = matched.filter((m) => m.found.length === wanted.length);
  const best = Math.max(...candidates.map((c) => c.score));
  const kept = (complete.length ? complete : matched.filter((m) => m.c.score === best)).slice(0, 10);
  return {
    kept: kept.map(({ c, found }) => ({ endpoint_id: c.endpoint_id, why: `${c.name} (${c.capability}) matches ${found.map((w) => `'${w}'`).join(', ') || 'the description'}${c.usd === null ? '' : `, $${c.usd} per unit`}` })),
    verdict: complete.length
      ? `${kept.length} of ${candidates.length} candidates match every word of the job.`
      : `No candidate matches every word; kept the ${kept.length} closest.`,
  };
};

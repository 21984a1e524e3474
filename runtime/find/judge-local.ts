// The default judge: deterministic, instant, no network. It reads the job (read-job.ts: what the caller
// has, what they want) and keeps the candidates whose capability takes the one and gives the other,
// routed entries first, a few per capability, each with a one-line why. When no capability does it
// alone it says whether two chained would, and when nothing does, it says so.
import type { Candidate, Judge, Judgement } from './types.ts';
import type { Fit, JobReading } from './read-job.ts';
import { nothingVerdict } from './nothing.ts';

/** rows kept per capability: the routed entry and the next best, so several capabilities show */
const PER_CAPABILITY = 3;
const KEPT = 10;

const list = (fields: string[]) => fields.join(' + ');
const why = (f: Fit): string =>
  `${f.takes ? `takes ${list(f.takes)}` : 'takes what you have'}, returns ${f.returns.join(', ')}${f.missing.length ? ` (also needs ${list(f.missing)})` : ''}`;

function rowsOf(capability: string, candidates: Candidate[], line: string): Judgement['kept'] {
  const rows = candidates.filter((c) => c.capability === capability);
  rows.sort((a, b) => Number(b.kind === 'routed') - Number(a.kind === 'routed'));
  return rows.slice(0, PER_CAPABILITY).map((c) => ({ endpoint_id: c.endpoint_id, why: `${line}${c.usd === null ? '' : `; $${c.usd} per unit`}` }));
}

/** the hub tools among the candidates whose steps use every one of `capabilities`, with what they chain */
function toolsUsing(capabilities: string[], candidates: Candidate[]): Judgement['kept'] {
  return candidates
    .filter((c) => c.kind === 'tool' && capabilities.every((cap) => c.capabilities?.includes(cap)))
    .map((c) => ({
      endpoint_id: c.endpoint_id,
      why: `hub tool ${c.name}: ${c.capabilities!.join(' then ')} in one run; $${c.usd} per run plus what its steps cost`,
    }));
}

export const localJudge: Judge = async ({ q, reading }, candidates) => judge(q, reading, candidates);

function judge(q: string, reading: JobReading, candidates: Candidate[]): Judgement {
  if (!candidates.length) return { kept: [], verdict: nothingVerdict(q) };
  // Within a group, search's order: the first candidate of each capability gives its rank.
  const rank = new Map<string, number>();
  candidates.forEach((c, i) => {
    if (!rank.has(c.capability)) rank.set(c.capability, i);
  });
  const present = (fits: Fit[]) => fits.filter((f) => rank.has(f.capability));
  const fullyTaken = (f: Fit) => Number(Boolean(f.takes) && !f.missing.length);
  const fits = present(reading.fits).sort((a, b) => fullyTaken(b) - fullyTaken(a) || rank.get(a.capability)! - rank.get(b.capability)!);
  const unfit = present(reading.unfit).sort((a, b) => rank.get(a.capability)! - rank.get(b.capability)!);
  const have = reading.has.length ? list(reading.has) : 'nothing named';
  const top = candidates[0];
  /** search's best match, when the judge kept nothing of its capability: shown last, and said to be a match by words only */
  const closest = (kept: Judgement['kept']) =>
    kept.some((k) => candidates.find((c) => c.endpoint_id === k.endpoint_id)?.capability === top.capability)
      ? []
      : rowsOf(top.capability, candidates, `closest by words: ${top.name} (${top.capability}); its contract does not show it does this job`).slice(0, 2);

  if (fits.length) {
    const best = fits[0];
    const kept = [...fits.flatMap((f) => rowsOf(f.capability, candidates, why(f))), ...toolsUsing([best.capability], candidates)].slice(0, KEPT);
    return {
      kept: [...kept, ...closest(kept)].slice(0, KEPT),
      verdict: `${best.capability} ${why(best)}; you have ${have}. Kept ${kept.length} of ${candidates.length} candidates, routed entries first.`,
    };
  }
  const c = reading.chain;
  const chained = c
    ? ` Two steps would: ${c.first.capability} takes ${list(c.first.takes ?? [])} and returns ${list(c.via)}, which ${c.then.capability} takes; a hub tool could chain them.`
    : '';
  if (unfit.length) {
    const kept = unfit.flatMap((f) => rowsOf(f.capability, candidates, `returns ${f.returns.join(', ')}, but takes other inputs than ${have}`));
    const chainRows = c
      ? [...rowsOf(c.first.capability, candidates, `step 1: ${why(c.first)}`), ...rowsOf(c.then.capability, candidates, `step 2: ${why(c.then)}`)]
      : [];
    // a live tool that chains the two steps does the job in one call: it comes first
    const tools = c ? toolsUsing([c.first.capability, c.then.capability], candidates) : [];
    const byTool = tools.length ? ` The hub tool ${tools[0].endpoint_id} chains them in one call.` : '';
    return {
      kept: [...tools, ...kept, ...chainRows, ...closest(kept)].slice(0, KEPT),
      verdict: `No operation takes ${have} and returns ${reading.wants.join(', ') || 'what this job asks for'} in one step.${chained || ` Closest: ${unfit.map((f) => f.capability).join(', ')}, which need other inputs.`}${byTool}`,
    };
  }
  // No want recognised (a provider's name, an unknown word): the best matches by words, said as such.
  const caps = [...rank.keys()].slice(0, 3);
  const kept = caps.flatMap((cap) =>
    candidates
      .filter((x) => x.capability === cap)
      .slice(0, 2)
      .map((x) => ({ endpoint_id: x.endpoint_id, why: `matches the words: ${x.name} (${x.capability})` })),
  );
  return { kept, verdict: `The job names no output this catalog knows; kept the best matches by words (${caps.join(', ')}).` };
}

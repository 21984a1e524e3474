// The default judge: deterministic, instant, no network. It reads the job (read-job.ts: what the caller
// has, what they want) and keeps the candidates whose capability takes the one and gives the other,
// routed entries first, a few per capability, each with a one-line why. When no capability does it
// alone it says whether two chained would, and when nothing does, it says so.
import type { Candidate, Judge, Judgement } from './types.ts';
import { fitOrder, type Fit, type JobReading } from './read-job.ts';
import { nothingVerdict } from './nothing.ts';
import { contentWords } from '../../language/read-query.ts';
import { usdTextOf } from '../../language/money-words.ts';

/** rows kept per capability: the routed entry and the next best, so several capabilities show */
const PER_CAPABILITY = 3;
const KEPT = 10;

const list = (fields: string[]) => fields.join(' + ');
/** the set the job fills; when it names none of the capability's inputs, every set it accepts */
const takes = (f: Fit) => (f.takes ? list(f.takes) : f.accepts.map(list).join(' or '));
const why = (f: Fit): string => `takes ${takes(f)}, returns ${f.returns.join(', ')}${f.missing.length ? ` (also needs ${list(f.missing)})` : ''}`;
/** the job's own words for phrases as read ('persons' for 'person'), quoted */
function quoted(q: string, read: string[]): string {
  const words = (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => contentWords(w).length);
  const stems = words.map((w) => contentWords(w).join(' '));
  return read
    .map((key) => {
      const n = key.split(' ').length;
      const at = stems.findIndex((_, i) => stems.slice(i, i + n).join(' ') === key);
      return `'${at < 0 ? key : words.slice(at, at + n).join(' ')}'`;
    })
    .join(', ');
}
/** what the caller has of what `f` takes, as its vocabulary reads the job; a word that names no one input is said to */
const had = (q: string, f: Fit, r: JobReading) =>
  f.takes
    ? `you have ${list(f.takes.filter((x) => !f.missing.includes(x)))}`
    : `the job names none of its inputs${r.vague.length ? ` (${quoted(q, r.vague)} does not say which one you have)` : ''}`;

function rowsOf(capability: string, candidates: Candidate[], line: string): Judgement['kept'] {
  const all = candidates.filter((c) => c.capability === capability);
  // a utility operation beside others of its capability is a step of theirs (a job's status, results
  // or removal), which does no job itself; a capability of utilities alone (an account's credits) keeps them
  const rows = all.some((c) => c.kind !== 'utility') ? all.filter((c) => c.kind !== 'utility') : all;
  rows.sort((a, b) => Number(b.kind === 'routed') - Number(a.kind === 'routed'));
  return rows
    .slice(0, PER_CAPABILITY)
    .map((c) => ({ endpoint_id: c.endpoint_id, why: `${line}${c.usd === null ? '' : `; ${usdTextOf(c.usd)} per ${c.unit ?? 'unit'}`}` }));
}

/** the hub tools among the candidates whose steps use every one of `capabilities`, with what they chain */
function toolsUsing(capabilities: string[], candidates: Candidate[]): Judgement['kept'] {
  // its first step is the job's first: a tool takes what its first step takes ('verify these emails'
  // is no job for a tool that finds an email from a name, then verifies it)
  return candidates
    .filter((c) => c.kind === 'tool' && c.capabilities?.[0] === capabilities[0] && capabilities.every((cap) => c.capabilities?.includes(cap)))
    .map((c) => ({
      endpoint_id: c.endpoint_id,
      why: `hub tool ${c.name}: ${c.capabilities!.join(' then ')} in one run; ${usdTextOf(c.usd)} per run plus what its steps cost`,
    }));
}

export const localJudge: Judge = async ({ q, reading }, candidates) => judge(q, reading, candidates);

/**
 * Capabilities that do a job themselves: one whose candidates are all utilities (a bulk job's status,
 * its results read back) is a step of another, kept only where nothing else is or where search's best
 * match is one (a job about an account: 'how many credits are left').
 */
function doers(fits: Fit[], candidates: Candidate[]): Fit[] {
  const steps = (f: Fit) => candidates.every((c) => c.capability !== f.capability || c.kind === 'utility');
  if (candidates[0]?.kind === 'utility') return fits;
  return fits.some((f) => !steps(f)) ? fits.filter((f) => !steps(f)) : fits;
}

function judge(q: string, reading: JobReading, candidates: Candidate[]): Judgement {
  if (!candidates.length) return { kept: [], verdict: nothingVerdict(q) };
  // Within a group, search's order: the first candidate of each capability gives its rank.
  const rank = new Map<string, number>();
  candidates.forEach((c, i) => {
    if (!rank.has(c.capability)) rank.set(c.capability, i);
  });
  const present = (fits: Fit[]) => fits.filter((f) => rank.has(f.capability));
  const order = fitOrder(reading.has);
  const fits = doers(present(reading.fits), candidates).sort((a, b) => order(a, b) || rank.get(a.capability)! - rank.get(b.capability)!);
  const unfit = doers(present(reading.unfit), candidates).sort((a, b) => rank.get(a.capability)! - rank.get(b.capability)!);
  const top = candidates[0];
  // capabilities of another platform than the one the job names: never offered, not even as close
  const offPlatform = new Set(reading.elsewhere.map((f) => f.capability));
  /** search's best match, when the judge kept nothing of its capability: shown last, and said to be a match by words only */
  const closest = (kept: Judgement['kept']) =>
    offPlatform.has(top.capability) || kept.some((k) => candidates.find((c) => c.endpoint_id === k.endpoint_id)?.capability === top.capability)
      ? []
      : rowsOf(top.capability, candidates, `closest by words: ${top.name} (${top.capability}); its contract does not show it does this job`).slice(0, 2);

  if (fits.length) {
    const best = fits[0];
    const doing = [...fits.flatMap((f) => rowsOf(f.capability, candidates, why(f))), ...toolsUsing([best.capability], candidates)].slice(0, KEPT);
    const kept = [...doing, ...closest(doing)].slice(0, KEPT);
    // the count is of the rows that do the job; a row search liked better, shown after them, is said to be apart
    const extra = kept.length - doing.length;
    const apart = extra ? `, then ${extra === 1 ? 'one row' : `${extra} rows`} of ${top.capability}, search's best match by words, which does not do it` : '';
    return {
      kept,
      verdict: `${best.capability} ${why(best)}; ${had(q, best, reading)}. Kept ${doing.length} of ${candidates.length} candidates, routed entries first${apart}.`,
    };
  }
  // a job that names its subject only vaguely ('this company') names no input these could be told
  if (unfit.length && !reading.has.length) {
    const kept = unfit.flatMap((f) => rowsOf(f.capability, candidates, `${why(f)}; the job names none of these`));
    return {
      kept: [...kept, ...closest(kept)].slice(0, KEPT),
      verdict: `${quoted(q, reading.vague)} does not say which input you have: ${unfit[0].capability} ${why(unfit[0])}.`,
    };
  }
  const c = reading.chain;
  const chained = c
    ? ` Two steps would: ${c.first.capability} takes ${list(c.first.takes ?? [])} and returns ${list(c.via)}, which ${c.then.capability} takes; a hub tool could chain them.`
    : '';
  if (unfit.length) {
    const have = list(reading.has);
    const kept = unfit.flatMap((f) => rowsOf(f.capability, candidates, `returns ${f.returns.join(', ')}, but takes other inputs than ${have}`));
    const chainRows = c
      ? [...rowsOf(c.first.capability, candidates, `step 1: ${why(c.first)}`), ...rowsOf(c.then.capability, candidates, `step 2: ${why(c.then)}`)]
      : [];
    // a live tool that chains the two steps does the job in one call: it comes first
    const tools = c ? toolsUsing([c.first.capability, c.then.capability], candidates) : [];
    const byTool = tools.length ? ` The hub tool ${tools[0].endpoint_id} chains them in one call.` : '';
    return {
      kept: [...tools, ...kept, ...chainRows, ...closest(kept)].slice(0, KEPT),
      verdict: `No operation takes ${have} and returns ${[...new Set(unfit.flatMap((f) => f.returns))].join(', ')} in one step.${chained || ` Closest: ${unfit.map((f) => f.capability).join(', ')}, which need other inputs.`}${byTool}`,
    };
  }
  // Nothing here does it on the platform the job names: another platform's rows do not do the job, at most come near.
  const away = [...reading.elsewhere].sort((a, b) => (rank.get(a.capability) ?? candidates.length) - (rank.get(b.capability) ?? candidates.length))[0];
  const named = reading.platforms.join(' or ');
  const nearest = away
    ? `The nearest, ${away.capability}, returns ${away.returns.join(', ')} from ${away.platform}, not ${named}.`
    : `The nearest by words: ${top.name} (${top.capability}).`;
  if (reading.unread.length) return { kept: [], verdict: `Nothing does this: no operation here reads ${reading.unread.join(' or ')}. ${nearest}` };
  // No want recognised (a provider's name, an unknown word), or none on the platform named: the best
  // matches by words, said as such.
  const caps = [...rank.keys()].filter((cap) => !offPlatform.has(cap)).slice(0, 3);
  const kept = caps.flatMap((cap) =>
    candidates
      .filter((x) => x.capability === cap)
      .slice(0, 2)
      .map((x) => ({ endpoint_id: x.endpoint_id, why: `matches the words: ${x.name} (${x.capability})` })),
  );
  const said = away
    ? `No operation on ${named} is known to return ${away.returns.join(', ')}. ${nearest} Kept`
    : 'The job names no output this catalog knows; kept';
  return { kept, verdict: `${said} the best matches by words (${caps.join(', ')}).` };
}

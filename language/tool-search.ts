// Hub tools ranked beside the catalog's operations by the same rules (docs/search.md): each query
// term counts once, weighted by its rarity, at the best place it matches for the tool: the
// vocabulary of any capability its steps use, or the tool's own words (name, id). A tool that chains
// two capabilities holds both vocabularies, so a need that spans them ("a verified work email from a
// LinkedIn URL") scores it above either capability alone. Tools are runtime data, so they are not in
// the build's index: the few live ones are scored directly.
import { searchEncoder } from './encoder.ts';
import { WEIGHT, wordsOf, type SearchEngine } from './search.ts';
import { startsWithAny } from './search-words.ts';

export interface ToolWords {
  /** the tool's own words: its name and id */
  own: Set<string>;
  summary: Set<string>;
  /** positions in engine.capabilities of the capabilities its steps use */
  caps: number[];
}

/** `capabilities`: the capabilities the tool's steps use (a routed step's, or an operation's own) */
export function toolWords(engine: SearchEngine, name: string, id: string, summary: string, capabilities: string[]): ToolWords {
  const at = new Map(engine.capabilities.map((c, i) => [c.capability, i]));
  return {
    own: wordsOf(`${name} ${id.replaceAll('-', ' ')}`),
    summary: new Set(searchEncoder.encode(summary)),
    caps: capabilities.flatMap((c) => (at.has(c) ? [at.get(c)!] : [])),
  };
}

export interface ToolScore {
  /** 0 when no word of the query matches the tool; on the scale of SearchEngine.search */
  score: number;
  /**
   * The capabilities (names) of its steps whose vocabulary alone holds every query word that the
   * chain's vocabularies hold: the tool adds nothing to the need over them, so their operations rank
   * first.
   */
  alone: string[];
}

/** each tool's score for `q` */
export function scoreTools(engine: SearchEngine, q: string, tools: ToolWords[]): ToolScore[] {
  const { terms, capWeight, idf, pairBonus, last } = engine.weigh(q);
  return tools.map((t) => {
    let matched = false;
    let s = WEIGHT.data + (t.caps.length ? WEIGHT.routedCapability : 0) + Math.max(0, ...t.caps.map((c) => pairBonus[c]));
    if (terms.some((term) => t.summary.has(term))) s += WEIGHT.summary;
    for (let k = 0; k < terms.length; k++) {
      let w = 0;
      for (const c of t.caps) w = Math.max(w, capWeight[c * terms.length + k]);
      const term = terms[k];
      if (t.own.has(term) || (k === last && startsWithAny(t.own, term))) w = Math.max(w, WEIGHT.ownWord);
      if (w > 0 || t.summary.has(term)) matched = true;
      s += idf[k] * w;
    }
    const held = (c: number, k: number) => capWeight[c * terms.length + k] > 0;
    const byChain = terms.flatMap((_, k) => (t.caps.some((c) => held(c, k)) ? [k] : []));
    const alone = t.caps.filter((c) => byChain.length > 0 && byChain.every((k) => held(c, k))).map((c) => engine.capabilities[c].capability);
    return { score: matched ? Math.round(s * 1000) / 1000 : 0, alone };
  });
}

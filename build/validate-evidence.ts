// The build's checks that each price and each provider fact carries the words it rests on
// (docs/catalog-format.md, "Prices and their evidence", "Facts and their sources"): a number is trusted
// as far as the words next to it say, and no further.
import type { EvidenceSrc, OperationSrc, ProviderSrc, SourcePos } from '../language/types.ts';
import type { BuildError } from './build-error.ts';
import { inDollars } from '../language/price-words.ts';

type At = (...path: Array<string | number>) => SourcePos;

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** Whether the quoted words name the figure: as digits (0.25, .25, 1,000), for a small whole number as a word, and 1 as "a credit". */
export function quoteNames(quote: string, value: number): boolean {
  const text = quote.toLowerCase().replace(/(\d),(\d{3})/g, '$1$2');
  if ((text.match(/\d*\.?\d+/g) ?? []).some((n) => Number(n) === value)) return true;
  if (value === 1 && /\ban? (credit|request|search|lookup|query)\b/.test(text)) return true;
  return Number.isInteger(value) && value < WORDS.length && new RegExp(`\\b${WORDS[value]}\\b`).test(text);
}

/** A price's evidence: documented and third_party prices quote the words that state them; an estimate says what it assumed. */
export function priceEvidenceErrors(op: OperationSrc, at: At, provider: ProviderSrc): BuildError[] {
  const c = op.cost;
  if (!c) return [];
  const errs: BuildError[] = [];
  const err = (message: string, ...path: Array<string | number>) => errs.push({ pos: at('cost', ...path), provider: provider.service, message });
  if (c.source === 'estimated') {
    if (!c.assumed) err('cost.source estimated needs cost.assumed: what the price assumes (a plan, a credit price, a count nobody states)', 'source');
    return errs;
  }
  if (!c.evidence) {
    err(`cost.source ${c.source} needs cost.evidence {url, quote, read}: the words that state the price, where, and the day they were read`, 'source');
    return errs;
  }
  if (c.source === 'documented' && c.evidence.by)
    err(`cost.evidence.by '${c.evidence.by}': documented means the provider's own words; words by someone else are source third_party`, 'evidence', 'by');
  if (c.source === 'third_party' && !c.evidence.by) err('cost.source third_party needs cost.evidence.by: who states the price', 'evidence');
  if (c.type !== 'free' && !quoteNames(c.evidence.quote, c.value))
    err(`cost.evidence.quote does not name the price's figure ${c.value}: quote the words that state it`, 'evidence', 'quote');
  // the charge is stated in credits; what a credit costs in dollars is a second fact
  if (c.type !== 'free' && c.usd !== null && !inDollars(c.currency) && !c.usd_evidence && !c.assumed) {
    err(
      `cost.usd: a price in ${c.currency} needs cost.usd_evidence (the words that state a ${c.currency} unit's dollar price) or cost.assumed (the rate assumed)`,
      'usd',
    );
  }
  return errs;
}

/** What the words must contain for an auth placement to be the one they state, where it can be told. */
function authWords(auth: ProviderSrc['auth']): string[] {
  const words: string[] = [];
  if ((auth.in === 'header' || auth.in === 'query') && auth.name) words.push(auth.name);
  if (auth.in === 'bearer') words.push('bearer');
  if (auth.in === 'basic') words.push('basic');
  if (auth.prefix?.trim()) words.push(auth.prefix.trim());
  return words;
}

function factEvidence(e: EvidenceSrc & { source: string }, err: (m: string, ...p: Array<string | number>) => void, key: string): void {
  if (e.source === 'documented' && e.by)
    err(`facts.${key}.by '${e.by}': documented means the provider's own words; someone else's are source third_party`, key, 'by');
  if (e.source === 'third_party' && !e.by) err(`facts.${key}.source third_party needs facts.${key}.by: who states it`, key);
}

/** A provider's facts: the quoted words must name the base URL's host and the auth placement the YAML uses. */
export function factErrors(provider: ProviderSrc, at: At): BuildError[] {
  const errs: BuildError[] = [];
  const err = (message: string, ...path: Array<string | number>) => errs.push({ pos: at('facts', ...path), provider: provider.service, message });
  const { base_url: base, auth } = provider.facts ?? {};
  if (base) {
    factEvidence(base, err, 'base_url');
    const host = URL.canParse(provider.base_url) ? new URL(provider.base_url).host : provider.base_url;
    if (!base.quote.toLowerCase().includes(host.toLowerCase())) err(`facts.base_url.quote does not name ${host}, the host base_url calls`, 'base_url', 'quote');
  }
  if (auth) {
    factEvidence(auth, err, 'auth');
    const missing = authWords(provider.auth).filter((w) => !auth.quote.toLowerCase().includes(w.toLowerCase()));
    if (missing.length) err(`facts.auth.quote does not name ${missing.map((w) => `'${w}'`).join(', ')}, which auth sends`, 'auth', 'quote');
  }
  return errs;
}

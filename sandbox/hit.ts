// A hit in the provider's own shape: the captured example, with the fields the child's response
// mapping reads overwritten by values derived from the subject, lists sized to the limit, and the
// contract's miss field guaranteed non-empty.
import type { CapabilitySrc, ResponseFieldSrc, ResponseSrc } from '../language/types.ts';
import { getPath, setPath } from '../language/json-path.ts';
import { bareDomain, linkedinHandle } from '../language/transforms.ts';
import { isContractMiss, mapOutput } from '../language/map-response.ts';
import type { Facts } from './facts.ts';
import { fillList } from './lists.ts';
import { isRoot, setAt } from './paths.ts';
import { missField } from './miss.ts';

const asSpec = (s: string | ResponseFieldSrc): ResponseFieldSrc => (typeof s === 'string' ? { path: s } : s);

function factFor(field: string, cap: CapabilitySrc, facts: Facts): string | undefined {
  if (field === 'linkedin_url') return 'full_name' in cap.output ? facts.person_linkedin_url : facts.company_linkedin_url;
  if (field === 'name' && 'full_name' in cap.output) return undefined;
  return facts[field];
}

/** The value to store so that reading it back through `transform` gives `value`, in the example's type. */
function rawLike(current: unknown, value: string, transform: string | undefined): unknown {
  if (Array.isArray(current)) return current.length && typeof current[0] === 'object' ? current : [value, ...current.slice(1)];
  if ((current !== null && typeof current === 'object') || typeof current === 'number' || typeof current === 'boolean') return current;
  if (transform?.startsWith('linkedin_') && typeof current === 'string' && current && !current.includes('/')) return linkedinHandle(value) ?? value;
  if (transform === 'url' && typeof current === 'string' && current && !/^https?:/i.test(current)) return bareDomain(value) ?? value;
  return value;
}

/** A raw value that the `values` table maps to something (the current one when it already does). */
function hitValue(spec: ResponseFieldSrc, current: unknown): unknown {
  const values = spec.values ?? {};
  if (current !== null && current !== undefined && values[String(current)] !== undefined && values[String(current)] !== null) return current;
  const key = Object.keys(values).find((k) => values[k] !== null);
  if (key === undefined) return current;
  if (typeof current === 'number' && Number.isFinite(Number(key))) return Number(key);
  if (typeof current === 'boolean' && (key === 'true' || key === 'false')) return key === 'true';
  return key;
}

function synthetic(type: string, field: string, facts: Facts, h: number): unknown {
  switch (type) {
    case 'int':
      return 1 + (h % 500);
    case 'number':
      return 0.9;
    case 'bool':
      return true;
    case 'url':
      return facts.website;
    case 'object':
      return { id: String(h), text: `${field} of ${facts.name}` };
    case 'list':
      return [`${field} 1`];
    default:
      return facts[field] ?? `${field} ${facts.name}`;
  }
}

export interface HitInput {
  cap: CapabilitySrc;
  response: ResponseSrc;
  /** the captured example record (already cut to the async result path) */
  base: unknown;
  facts: Facts;
  hash: number;
  limit: number | null;
}

export function buildHit(input: HitInput): unknown {
  const { cap, response, facts, hash, limit } = input;
  let body: unknown = input.base === null || input.base === undefined ? {} : structuredClone(input.base);
  if (response.rows && !Object.values(response.output).some((s) => asSpec(s).path === response.rows)) {
    body = fillList(body, { path: response.rows }, limit, hash);
  }
  const miss = missField(cap);
  for (const [field, def] of Object.entries(cap.output)) {
    const raw = response.output[field];
    if (raw === undefined) continue;
    const spec = asSpec(raw);
    if (def.type === 'list' && (spec.items || spec.where || field === miss || spec.path === response.rows)) {
      body = fillList(body, spec, limit, hash);
      continue;
    }
    if (isRoot(spec.path)) continue;
    const current = getPath(body, spec.path);
    if (spec.values) {
      if (field === miss || def.required) setPath(body as Record<string, unknown>, spec.path, hitValue(spec, current));
      continue;
    }
    const fact = factFor(field, cap, facts);
    if (fact !== undefined) setPath(body as Record<string, unknown>, spec.path, rawLike(current, fact, spec.transform));
  }
  if (miss && isContractMiss(cap, mapOutput(cap, response, body))) {
    const spec = response.output[miss] ? asSpec(response.output[miss]) : null;
    if (spec) body = setAt(body, spec.path, synthetic(cap.output[miss].type, miss, facts, hash));
  }
  return body;
}

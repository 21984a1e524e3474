// Operation path templates (`/v2/companies/{domain}`) as the pass-through matches them and the build
// checks them. A literal segment wins over a `{param}` segment at the first place two templates
// differ, so `/v2/companies/by-email` is never taken for a company domain.

export interface PathTemplate {
  /** a parameter segment's pattern captures its parameters, in `names` order */
  segments: Array<{ literal: string } | { re: RegExp; names: string[] }>;
  /** one letter per segment, L (literal) or P (holds a parameter): the lower sorts first and wins */
  rank: string;
  /** the template with every parameter name blanked: equal for two names of one upstream path */
  shape: string;
}

const PARAM = /\{[a-zA-Z0-9_]+\}/g;
const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

export function compileTemplate(path: string): PathTemplate {
  const parts = path.split('/');
  return {
    segments: parts.map((s) =>
      s.includes('{')
        ? { re: new RegExp(`^${s.split(PARAM).map(escape).join('([^/]+)')}$`), names: [...s.matchAll(PARAM)].map((m) => m[0].slice(1, -1)) }
        : { literal: s },
    ),
    rank: parts.map((s) => (s.includes('{') ? 'P' : 'L')).join(''),
    shape: path.replace(PARAM, '{}'),
  };
}

export function matchesTemplate(t: PathTemplate, path: string): boolean {
  const parts = path.split('/');
  return parts.length === t.segments.length && t.segments.every((s, i) => ('literal' in s ? s.literal === parts[i] : s.re.test(parts[i])));
}

/** The value of each `{param}` in a path the template matches. */
export function pathParams(t: PathTemplate, path: string): Record<string, string> {
  const parts = path.split('/');
  const out: Record<string, string> = {};
  t.segments.forEach((s, i) => {
    if ('literal' in s) return;
    const m = s.re.exec(parts[i]);
    s.names.forEach((name, j) => {
      if (m) out[name] = m[j + 1];
    });
  });
  return out;
}

/** The most specific of the templates that match one path: literal before parameter, leftmost first. */
export function mostSpecific<T extends { template: PathTemplate }>(matching: T[]): T | undefined {
  let best: T | undefined;
  for (const m of matching) if (!best || m.template.rank < best.template.rank) best = m;
  return best;
}

/**
 * Whether one path can match both templates with neither more specific: the same segments in the
 * same places, literal or parameter, but written differently (`{id}.json` beside `{id}`). Two
 * templates of one shape are one upstream path under two names, not a tie.
 */
export function tie(a: PathTemplate, b: PathTemplate): boolean {
  if (a.rank !== b.rank || a.shape === b.shape) return false;
  return a.segments.every((s, i) => {
    const o = b.segments[i];
    return 'literal' in s ? 'literal' in o && s.literal === o.literal : 're' in o;
  });
}

const UNSAFE_PATH = /(^|\/)\.\.?(\/|$)|%2e|%2f|\\/i;

/** Dot segments, encoded dots or slashes, backslashes: ways out of a provider's path. */
export const isUnsafePath = (path: string): boolean => UNSAFE_PATH.test(path);

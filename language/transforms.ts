// Named value functions that provider YAML may refer to (`transform: domain`). Logic that a mapping
// cannot express as a path lives here, under a name; the build rejects names not in this registry.

type Fn = (value: unknown) => unknown;

const str = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));

/** bare host of a URL or domain-ish string: "https://www.Acme.com/x" -> "acme.com" */
export function bareDomain(v: unknown): string | null {
  const s = str(v);
  if (!s) return null;
  const host = s
    .replace(/^[a-z]+:\/\//i, '')
    .split(/[/?#]/)[0]
    .toLowerCase();
  return host.replace(/^www\./, '') || null;
}

/** "https://www.linkedin.com/in/jane-doe/" -> "jane-doe" (also /company/<x>) */
export function linkedinHandle(v: unknown): string | null {
  const s = str(v);
  if (!s) return null;
  const m = /linkedin\.com\/(?:in|company|school)\/([^/?#]+)/i.exec(s);
  return m ? decodeURIComponent(m[1]) : s.includes('/') ? null : s;
}

export function linkedinProfileUrl(v: unknown): string | null {
  const h = linkedinHandle(v);
  return h ? `https://www.linkedin.com/in/${h}` : null;
}

export function linkedinCompanyUrl(v: unknown): string | null {
  const h = linkedinHandle(v);
  return h ? `https://www.linkedin.com/company/${h}` : null;
}

export const transforms: Record<string, Fn> = {
  lower: (v) => str(v)?.toLowerCase() ?? null,
  upper: (v) => str(v)?.toUpperCase() ?? null,
  string: (v) => str(v),
  int: (v) => (v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : Math.trunc(Number(v))),
  number: (v) => (v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : Number(v)),
  bool: (v) => (v === null || v === undefined ? null : v === true || v === 'true' || v === 1 || v === '1'),
  domain: bareDomain,
  url: (v) => {
    const d = bareDomain(v);
    return d ? `https://${d}` : null;
  },
  linkedin_handle: linkedinHandle,
  linkedin_profile_url: linkedinProfileUrl,
  linkedin_company_url: linkedinCompanyUrl,
  first: (v) => (Array.isArray(v) ? (v[0] ?? null) : (v ?? null)),
  count: (v) => (Array.isArray(v) ? v.length : null),
  join_comma: (v) => (Array.isArray(v) ? v.join(',') : str(v)),
  /** name parts read from several paths (first, last) -> "First Last"; absent parts are skipped */
  join_words: (v) =>
    Array.isArray(v)
      ? v
          .map(str)
          .filter((w) => w !== null)
          .join(' ') || null
      : str(v),
  list: (v) => (v === null || v === undefined ? [] : Array.isArray(v) ? v : [v]),
  /** LinkedIn activity URN or URL -> numeric id */
  post_id: (v) => {
    const s = str(v);
    const m = s ? /(\d{15,})/.exec(s) : null;
    return m ? m[1] : null;
  },
  post_urn: (v) => {
    const s = str(v);
    const m = s ? /(\d{15,})/.exec(s) : null;
    return m ? `urn:li:activity:${m[1]}` : null;
  },
  /** YouTube watch/short URL or bare id -> video id */
  youtube_video_id: (v) => {
    const s = str(v);
    if (!s) return null;
    const m = /(?:v=|youtu\.be\/|shorts\/|embed\/)([A-Za-z0-9_-]{11})/.exec(s);
    return m ? m[1] : /^[A-Za-z0-9_-]{11}$/.test(s) ? s : null;
  },
};

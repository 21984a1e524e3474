// What the caller asked about: contract fields read back from the provider request. With the child's
// request mapping this is exact; without it, values are recognised by their shape.
import type { CapabilitySrc } from '../language/types.ts';
import { leaves, readTarget, type ParsedRequest } from './request-read.ts';
import type { SandboxOperation, Subject } from './types.ts';

const LIMIT_NAMES = /^(limit|size|num|count|per_page|page_size|max_results|maxresults|results|depth|top)$/i;

const SHAPES: Array<[string, RegExp]> = [
  ['email', /^[^\s@/]+@[^\s@/]+\.[a-z]{2,}$/i],
  ['linkedin_url', /linkedin\.com\//i],
  ['website', /^https?:\/\//i],
  ['domain', /^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i],
  ['phone', /^\+?[\d\s().-]{7,}$/],
  ['post_urn', /\d{15,}/],
];

export interface ReadSubject {
  subject: Subject;
  /** the row count the caller asked for, when the request says */
  limit: number | null;
}

function fromMapping(op: SandboxOperation, req: ParsedRequest): ReadSubject {
  const subject: Subject = {};
  let limit: number | null = null;
  for (const m of op.request?.map ?? []) {
    const v = readTarget(req, m.to);
    if (v === undefined || v === null || v === '') continue;
    if (m.from === 'limit') limit = Number.isFinite(Number(v)) ? Number(v) : null;
    else if (!(m.from in subject)) subject[m.from] = Array.isArray(v) ? v.map(String).join(',') : String(v);
  }
  return { subject, limit };
}

function byShape(cap: CapabilitySrc | null, req: ParsedRequest, ignore: Set<string>): ReadSubject {
  const sent: Array<[string, unknown]> = [...Object.entries(req.params), ...[...req.query.entries()].filter(([k]) => !ignore.has(k)), ...leaves(req.body)];
  let limit: number | null = null;
  const shaped: Subject = {};
  const text: Array<[string, string]> = [];
  for (const [key, raw] of sent) {
    if (LIMIT_NAMES.test(key) && Number.isInteger(Number(raw))) {
      limit ??= Number(raw);
      continue;
    }
    if (typeof raw !== 'string' || !raw.trim()) continue;
    const shape = SHAPES.find(([, re]) => re.test(raw))?.[0];
    if (shape && !(shape in shaped)) shaped[shape] = raw;
    else if (!shape && /[a-z]/i.test(raw)) text.push([key.toLowerCase(), raw]);
  }
  const subject: Subject = {};
  for (const field of Object.keys(cap?.fields ?? {})) {
    if (shaped[field]) {
      subject[field] = shaped[field];
      continue;
    }
    if ((field === 'domain' || field === 'company_domain') && shaped.domain) subject[field] = shaped.domain;
    else if ((field === 'url' || field === 'website') && (shaped.website || shaped.linkedin_url)) subject[field] = shaped.website ?? shaped.linkedin_url;
    else if (field === 'post_id' && shaped.post_urn) subject[field] = shaped.post_urn;
    else {
      const named = text.find(([k]) => k.includes(field) || field.includes(k));
      if (named) subject[field] = named[1];
    }
  }
  if (!Object.keys(subject).length && text.length) subject.q = text[0][1];
  return { subject, limit };
}

export function readSubject(op: SandboxOperation, cap: CapabilitySrc | null, req: ParsedRequest, ignore: Set<string>): ReadSubject {
  const mapped = op.request?.map?.length ? fromMapping(op, req) : null;
  if (mapped && Object.keys(mapped.subject).length) return mapped;
  const shaped = byShape(cap, req, ignore);
  return { subject: shaped.subject, limit: mapped?.limit ?? shaped.limit };
}

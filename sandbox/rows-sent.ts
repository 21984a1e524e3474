// How many rows a call submits when the provider bills per item sent (a batch of addresses to verify,
// of domains to enrich) and its answer lists none: read from the operation's page-size parameter as
// the request carries it, else its declared default page. Written apart from the router's reading on
// purpose, like billing.ts.
import { segments } from '../language/json-path.ts';
import { readPath, type ParsedRequest } from './request-read.ts';
import type { SandboxOperation } from './types.ts';

export function rowsSent(op: SandboxOperation, req: ParsedRequest): number | null {
  const param = op.page_size?.param;
  if (!param) return null;
  const [where, ...rest] = segments(param);
  const v = where === 'query' ? req.query.get(String(rest[0])) : readPath(req.body, [...rest]);
  let n: number | null = null;
  if (Array.isArray(v)) n = v.length;
  else if (typeof v === 'number' && Number.isInteger(v)) n = v;
  else if (typeof v === 'string') n = /^\d+$/.test(v.trim()) ? Number(v) : v.split(/[,\n]/).filter((s) => s.trim()).length;
  // not sent: the provider answers, and bills, its default page
  if (n === null) return op.page_size?.default ?? null;
  return Math.min(n, op.page_size?.max ?? n);
}

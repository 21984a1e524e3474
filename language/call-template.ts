// Paste-ready commands. `{{proxy_url}}` is left for the runtime (or a dashboard reading /meta) to fill,
// since the public URL is a deployment setting, not a build input.
import type { CapabilitySrc, OperationSrc, PageSizeSrc } from './types.ts';
import { sampleRequest } from './sample-request.ts';

export const PROXY_URL = '{{proxy_url}}';

/** Plausible sample values for contract fields, used in templates and routed examples. */
const SAMPLES: Record<string, unknown> = {
  domain: 'stripe.com',
  website: 'https://stripe.com',
  name: 'Stripe',
  q: 'stripe payments api',
  industry: 'financial services',
  technology: 'react',
  title: 'head of growth',
  full_name: 'Jane Doe',
  first_name: 'Jane',
  last_name: 'Doe',
  email: 'jane.doe@stripe.com',
  linkedin_url: 'https://www.linkedin.com/in/jane-doe',
  linkedin_handle: 'jane-doe',
  company_domain: 'stripe.com',
  video_id: 'dQw4w9WgXcQ',
  url: 'https://www.linkedin.com/posts/jane-doe_activity-7260000000000000000',
  post_id: '7260000000000000000',
  post_urn: 'urn:li:activity:7260000000000000000',
  phone: '+14155550123',
  country: 'us',
  language: 'en',
  location: 'San Francisco',
  keywords: ['payments'],
};

export function sampleFor(field: string): unknown {
  return SAMPLES[field] ?? 'example';
}

/** A capability's sample of one of its fields: its own (`samples`), else the shared one. */
export const capabilitySample = (cap: Pick<CapabilitySrc, 'samples'>, field: string): unknown => cap.samples?.[field] ?? sampleFor(field);

/** The example body of a routed call: the first identity set, filled with samples. */
export function routedSampleBody(cap: CapabilitySrc): Record<string, unknown> {
  const set = cap.identity[0];
  return Object.fromEntries(set.map((f) => [f, capabilitySample(cap, f)]));
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function routedTemplate(cap: CapabilitySrc): string {
  return [
    `curl -sS -X POST "${PROXY_URL}/${cap.capability}"`,
    `-H "x-svc-token: $SVC_TOKEN"`,
    `-H 'content-type: application/json'`,
    `-d ${shellQuote(JSON.stringify(routedSampleBody(cap)))}`,
  ].join(' ');
}

/** A pass-through call of one provider operation, sending what sample-request.ts says it needs. */
export function passThroughTemplate(service: string, op: OperationSrc, pageSize?: PageSizeSrc): string {
  const sample = sampleRequest(op, pageSize);
  const path = op.path.replace(/\{([^}]+)\}/g, (whole, name: string) => (name in sample.path ? encodeURIComponent(String(sample.path[name])) : whole));
  const query = Object.entries(sample.query).map(([k, v]) => [k, String(v)]);
  const qs = query.length ? `?${new URLSearchParams(query).toString()}` : '';
  const parts = [`curl -sS -X ${op.method} "${PROXY_URL}/${service}${path}${qs}"`, `-H "x-svc-token: $SVC_TOKEN"`];
  if (sample.body !== undefined) parts.push(`-H 'content-type: application/json'`, `-d ${shellQuote(JSON.stringify(sample.body))}`);
  return parts.join(' ');
}

/** The same routed call from a terminal (`svc call`, docs/cli.md): each sample as field=value. */
export function routedCliTemplate(cap: CapabilitySrc): string {
  const word = (v: unknown) => {
    const text = Array.isArray(v) ? v.join(',') : String(v);
    return /^[\w@.,:/+-]+$/.test(text) ? text : shellQuote(text);
  };
  return ['svc call', cap.capability, ...Object.entries(routedSampleBody(cap)).map(([k, v]) => `${k}=${word(v)}`)].join(' ');
}

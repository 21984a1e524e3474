// Paste-ready commands. `{{proxy_url}}` is left for the runtime (or a dashboard reading /meta) to fill,
// since the public URL is a deployment setting, not a build input.
import type { CapabilitySrc, OperationSrc } from './types.ts';

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

/** The example body of a routed call: the first identity set, filled with samples. */
export function routedSampleBody(cap: CapabilitySrc): Record<string, unknown> {
  const set = cap.identity[0];
  return Object.fromEntries(set.map((f) => [f, sampleFor(f)]));
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

/** A pass-through call of one provider operation, with example values for required parameters. */
export function passThroughTemplate(service: string, op: OperationSrc): string {
  const ex = (params: Record<string, { required?: boolean; example?: unknown }> | undefined) =>
    Object.entries(params ?? {})
      .filter(([, p]) => p.required || p.example !== undefined)
      .map(([k, p]) => [k, p.example ?? 'value'] as const);
  let path = op.path;
  for (const [k, v] of ex(op.input.pathParams)) path = path.replace(`{${k}}`, encodeURIComponent(String(v)));
  const query = op.test_request?.queryParams ? Object.entries(op.test_request.queryParams) : ex(op.input.queryParams);
  const qs = query.length ? `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}` : '';
  const parts = [`curl -sS -X ${op.method} "${PROXY_URL}/${service}${path}${qs}"`, `-H "x-svc-token: $SVC_TOKEN"`];
  if (op.method !== 'GET' && op.method !== 'DELETE') {
    const body = op.test_request?.body ?? Object.fromEntries(ex(op.input.body));
    parts.push(`-H 'content-type: application/json'`, `-d ${shellQuote(JSON.stringify(body))}`);
  }
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

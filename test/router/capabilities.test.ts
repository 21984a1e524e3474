// Every routed capability of the real catalog, through the real runtime and the sandbox: a hit, a
// miss then hit, all misses, an error then hit, all errors, a ceiling skip; filters, verify, async;
// and the ledger against what the sandbox billed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeCatalog } from '../../language/types.ts';
import { routedSampleBody } from '../../language/call-template.ts';
import { REAL_DIST } from '../helpers/paths.ts';
import { DOORS, routedWorld, type RoutedWorld } from '../helpers/routed.ts';

const runtime = JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'runtime.json'), 'utf8')) as RuntimeCatalog;
let w: RoutedWorld;
beforeAll(async () => {
  w = await routedWorld(REAL_DIST, { creditMicro: 1_000_000_000 });
});
afterAll(() => w.close());

interface Tried {
  endpoint_id: string;
  outcome: string;
  reason?: string;
  cost_micro: number;
}
const provider = (id: string) => runtime.operations[id].provider;

/** Put a steering word into the first identity value, where every child sends it on, keeping the value's form (formats: in the contract). */
function steer(body: Record<string, unknown>, word: string): Record<string, unknown> {
  const [field, value] = Object.entries(body)[0] as [string, string];
  const steered = value.includes('@')
    ? `${word}.${value}`
    : /^https?:/.test(value)
      ? `${value}${value.includes('?') ? '&' : '?'}t=${word}`
      : /^urn:/.test(value)
        ? `${value}-${word}`
        : /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(value)
          ? `${word}.${value}`
          : `${value} ${word}`;
  return { ...body, [field]: steered };
}

/** Transforms that keep only part of a value: a steering word riding on it never reaches the sandbox. */
const LOSSY = new Set(['post_id', 'post_urn', 'linkedin_handle', 'youtube_video_id', 'domain', 'int', 'number']);

/** Providers with a child that cannot receive a steering word on the given field (see docs/sandbox.md). */
function unsteerable(cap: string, field: string): string[] {
  return [
    ...new Set(
      runtime.capabilities[cap].children
        .filter((id) => !(runtime.operations[id].request?.map ?? []).some((m) => m.from === field && !(m.transform && LOSSY.has(m.transform))))
        .map(provider),
    ),
  ];
}

async function dryPlan(cap: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const r = await w.call(`/proxy/${cap}`, body, { 'X-Svc-Route-Dry-Run': '1', ...headers });
  expect(r.status).toBe(200);
  return r.body as { plan: Array<{ endpoint_id: string; worst_cost_micro: number }>; excluded: Array<{ endpoint_id: string; reason: string }> };
}

const capabilities = Object.keys(runtime.capabilities).sort();

describe.each(capabilities)('%s', (cap) => {
  const c = runtime.capabilities[cap];
  const body = (set = 0) => routedSampleBody({ ...c, identity: [c.identity[set]] });
  // The post-id transform keeps only digits, so a steering word cannot ride on a post id: use the URN set.
  const steerable = () => (c.identity.some((s) => s[0] === 'post_urn') ? body(c.identity.findIndex((s) => s[0] === 'post_urn')) : body());

  it('serves a hit from the first child of the plan', async () => {
    const { plan } = await dryPlan(cap, body());
    expect(plan.length).toBeGreaterThan(0);
    const r = await w.call(`/proxy/${cap}`, body());
    expect(r.status).toBe(200);
    expect(r.body._svc.served_by).toBe(plan[0].endpoint_id);
    expect(r.headers.get('x-svc-served-by')).toBe(plan[0].endpoint_id);
    expect(Number(r.headers.get('x-svc-cost-micro'))).toBe(r.body._svc.cost_micro);
  });

  it(c.misses?.final ? 'answers the first miss: the subject has none' : 'falls through a miss to another provider', async () => {
    // the plan of the calls below: the same ceiling, so no child is left out for it
    const { plan } = await dryPlan(cap, steerable(), { 'X-Svc-Route-Max-Cost': '100' });
    const first = provider(plan[0].endpoint_id);
    const r = await w.call(`/proxy/${cap}`, steer(steerable(), `nohit-${first}`));
    const tried = r.body._svc.tried as Tried[];
    expect(tried[0]).toMatchObject({ endpoint_id: plan[0].endpoint_id, outcome: 'miss' });
    if (c.misses?.final) {
      expect(r.body._svc).toMatchObject({ served_by: null, stopped: 'final_miss' });
      expect(tried.filter((t) => t.outcome !== 'skipped')).toHaveLength(1);
      return;
    }
    expect(r.body._svc.served_by).not.toBeNull();
    expect(provider(r.body._svc.served_by)).not.toBe(first);
  });

  const steerableOnly = () => ({ 'X-Svc-Route-Max-Cost': '100', 'X-Svc-Route-Exclude': unsteerable(cap, Object.keys(steerable())[0]).join(',') });

  it('answers the miss output when every child misses', async () => {
    const r = await w.call(`/proxy/${cap}`, steer(steerable(), 'nohit'), steerableOnly());
    expect((r.body._svc.tried as Tried[]).length).toBeGreaterThan(0);
    expect(r.status).toBe(200);
    expect(r.body._svc.served_by).toBeNull();
    const field = /^output\.([a-z_]+)/.exec(c.miss)![1];
    expect(r.body.output[field] === null || (Array.isArray(r.body.output[field]) && r.body.output[field].length === 0)).toBe(true);
    expect((r.body._svc.tried as Tried[]).filter((t) => t.outcome !== 'skipped').every((t) => t.outcome === 'miss')).toBe(true);
  });

  it('goes on after an error, and answers 502 when every child errors', async () => {
    // the plan of the calls below: the same ceiling, so no child is left out for it
    const { plan } = await dryPlan(cap, steerable(), { 'X-Svc-Route-Max-Cost': '100' });
    const first = provider(plan[0].endpoint_id);
    const one = await w.call(`/proxy/${cap}`, steer(steerable(), `fail-${first}`));
    expect((one.body._svc.tried as Tried[])[0]).toMatchObject({ outcome: 'error' });
    expect(provider(one.body._svc.served_by)).not.toBe(first);
    const everyone = [...new Set(plan.map((p) => provider(p.endpoint_id)))].map((p) => `fail-${p}`).join(' ');
    const all = await w.call(`/proxy/${cap}`, steer(steerable(), everyone.replace(/ /g, '.')), steerableOnly());
    expect(all.status).toBe(502);
    expect((all.body._svc.tried as Tried[]).filter((t) => t.outcome !== 'skipped').every((t) => t.outcome === 'error')).toBe(true);
    expect(all.body._svc.cost_micro).toBe(0);
  });

  it('skips a child whose worst case passes the ceiling, and never spends past it', async () => {
    const { plan } = await dryPlan(cap, body());
    const paid = plan.find((p) => p.worst_cost_micro > 0);
    if (!paid) return void expect(plan.every((p) => p.worst_cost_micro === 0)).toBe(true);
    const ceiling = paid.worst_cost_micro - 1;
    const r = await w.call(`/proxy/${cap}`, body(), { 'X-Svc-Route-Max-Cost': (ceiling / 1e6).toFixed(6) });
    expect((r.body._svc.tried as Tried[]).some((t) => t.endpoint_id === paid.endpoint_id && t.outcome === 'skipped' && t.reason === 'over_ceiling')).toBe(true);
    expect(r.body._svc.cost_micro).toBeLessThanOrEqual(ceiling);
  });
});

/** A filter of a capability that some children apply and some ignore, with disjoint providers. */
function splitFilter(cap: string): { filter: string; appliers: string[]; ignorers: string[] } | null {
  const c = runtime.capabilities[cap];
  for (const f of Object.keys(c.filters ?? {})) {
    const ignorers = c.children.filter((id) => runtime.operations[id].request?.ignores?.includes(f)).map(provider);
    const appliers = c.children.filter((id) => !runtime.operations[id].request?.ignores?.includes(f)).map(provider);
    if (ignorers.length && appliers.length && !ignorers.some((p) => appliers.includes(p)))
      return { filter: f, appliers: [...new Set(appliers)], ignorers: [...new Set(ignorers)] };
  }
  return null;
}
const FILTER_VALUE: Record<string, unknown> = { country: 'de', language: 'de', location: 'Berlin', keywords: ['payments'], limit: 5 };
const filtered = capabilities.filter((cap) => splitFilter(cap));

describe('filters across the real catalog', () => {
  it('has capabilities whose children differ in the filters they apply', () => expect(filtered.length).toBeGreaterThan(2));

  it.each(filtered)('%s: strict filters answer 422 and charge nothing when no child left can apply one', async (cap) => {
    const { filter, appliers } = splitFilter(cap)!;
    const balance = await w.ctx.state.balance(w.teamId);
    const r = await w.call(
      `/proxy/${cap}`,
      { ...routedSampleBody(runtime.capabilities[cap]), [filter]: FILTER_VALUE[filter] },
      { 'X-Svc-Route-Strict-Filters': '1', 'X-Svc-Route-Exclude': appliers.join(',') },
    );
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['header', 'X-Svc-Route-Strict-Filters']);
    expect(r.body.detail[0].msg).toContain(filter);
    expect(await w.ctx.state.balance(w.teamId)).toBe(balance);
  });

  it.each(filtered)('%s: without strict filters the answer names the filter the serving child ignored', async (cap) => {
    const { filter, ignorers } = splitFilter(cap)!;
    const r = await w.call(
      `/proxy/${cap}`,
      { ...routedSampleBody(runtime.capabilities[cap]), [filter]: FILTER_VALUE[filter] },
      { 'X-Svc-Route-Prefer': ignorers[0] },
    );
    expect(provider(r.body._svc.served_by)).toBe(ignorers[0]);
    expect(r.headers.get('x-svc-ignored-filters')?.split(',')).toContain(filter);
  });
});

describe('verification and async children in the real catalog', () => {
  it.each(['people.email.find', 'people.phone.find'])('%s verifies a hit when asked', async (cap) => {
    const r = await w.call(`/proxy/${cap}`, routedSampleBody(runtime.capabilities[cap]), { 'X-Svc-Route-Verify': 'true' });
    expect(r.status).toBe(200);
    expect(r.body._svc.verification).toEqual(
      expect.objectContaining({ verdict: expect.stringMatching(/valid|invalid|unknown/), cost_micro: expect.any(Number) }),
    );
    // the verifier's attempts are listed with the call's own, and together they are its cost
    expect((r.body._svc.tried as Tried[]).reduce((s, t) => s + t.cost_micro, 0)).toBe(r.body._svc.cost_micro);
  });

  const asyncChildren = Object.values(runtime.capabilities)
    .flatMap((c) => c.children.map((id) => [c.capability, id] as const))
    .filter(([, id]) => runtime.operations[id].async);
  it('has asynchronous children', () => expect(asyncChildren.length).toBeGreaterThanOrEqual(3));

  it.each(asyncChildren)('%s served by the async child %s', async (cap, id) => {
    const c = runtime.capabilities[cap];
    const set = c.identity.findIndex((s) => runtime.operations[id].accepts!.some((a) => a.join() === s.join()));
    const others = [...new Set(c.children.filter((x) => x !== id).map(provider))].filter((p) => p !== provider(id));
    const r = await w.call(`/proxy/${cap}`, routedSampleBody({ ...c, identity: [c.identity[set]] }), {
      'X-Svc-Route-Exclude': others.join(','),
      'X-Svc-Route-Prefer': provider(id),
    });
    expect(r.status).toBe(200);
    expect(r.body._svc.served_by).toBe(id);
  });
});

describe.each(DOORS)('identity forms of the real contracts, through the %s door', (door) => {
  it.each([
    ['linkedin.post.comments', { post_urn: 'not a urn' }, 'post_urn'],
    ['linkedin.post.reactions', { post_urn: 'urn:li:activity:12345' }, 'post_urn'],
    ['linkedin.post.detail', { url: 'https://stripe.com/posts/1' }, 'url'],
    ['linkedin.company.profile', { linkedin_handle: 'acme/about' }, 'linkedin_handle'],
    ['people.enrich', { email: 'not an email' }, 'email'],
    ['people.search', { company_domain: 'acme' }, 'company_domain'],
  ])('%s %j is a 422 naming the field, and nobody is paid', async (cap, body, field) => {
    const before = JSON.stringify(await w.billing());
    const r = await w.through(door)(`/proxy/${cap}`, body);
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', field]);
    expect(JSON.stringify(await w.billing())).toBe(before);
  });

  it('every sample body of the catalog has the forms it asks for', async () => {
    for (const cap of capabilities)
      expect((await w.through(door)(`/proxy/${cap}`, routedSampleBody(runtime.capabilities[cap]), { 'X-Svc-Route-Dry-Run': '1' })).status, cap).toBe(200);
  });
});

describe('money', () => {
  it('what the team was charged equals what the sandbox billed, to the micro-dollar', async () => {
    let charged = 0;
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await w.call(`/teams/me/ledger${cursor ? `?cursor=${cursor}` : ''}`);
      for (const e of page.body.entries) if (e.kind === 'charge') charged -= e.amount_micro;
      cursor = page.body.next_cursor;
    }
    const billed = Object.values(await w.billing()).reduce((n, b) => n + b.billed_micro, 0);
    expect(charged).toBe(billed);
    expect(charged).toBeGreaterThan(0);
  });
});

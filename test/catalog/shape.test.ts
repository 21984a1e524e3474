// Every field of the seed's endpoint object and catalog entry is present, with the seed's type, in
// every built entry; and the build is deterministic.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../build/pipeline.ts';
import { FIXTURE_DIST, FIXTURE_SRC, REAL_DIST } from '../helpers/paths.ts';

type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';
const is = (v: unknown, kinds: Kind[]) =>
  kinds.some((k) =>
    k === 'null'
      ? v === null
      : k === 'array'
        ? Array.isArray(v)
        : k === 'integer'
          ? Number.isInteger(v)
          : k === 'object'
            ? typeof v === 'object' && v !== null && !Array.isArray(v)
            : typeof v === k,
  );

const ENDPOINT: Record<string, Kind[]> = {
  id: ['string'],
  provider: ['string'],
  provider_display: ['string'],
  name: ['string'],
  summary: ['string'],
  method: ['string'],
  path: ['string'],
  scope: ['string'],
  tier: ['string'],
  kind: ['string'],
  domain: ['string'],
  call_template: ['string'],
  cost: ['object', 'null'],
  async: ['object', 'null'],
  platform_eligible: ['boolean'],
  platform_blocked: ['string', 'null'],
  miss: ['object', 'null'],
  status: ['string', 'null'],
  status_note: ['string', 'null'],
  superseded_by: ['string', 'null'],
  verified: ['string', 'null'],
  added: ['string', 'null'],
  docs_url: ['string'],
  has_example: ['boolean'],
  input: ['object'],
  test_request: ['object', 'null'],
  observed: ['object', 'null'],
  capability: ['string'],
  capability_description: ['string'],
  platform: ['string'],
  platform_label: ['string'],
};
const ROUTED_ONLY: Record<string, Kind[]> = { routed_children: ['array'] };
const OPTIONAL: Record<string, Kind[]> = { body_allowlist: ['boolean'], strict_query: ['boolean'], strict_body: ['boolean'], reviews: ['object'] };
const COST: Record<string, Kind[]> = {
  type: ['string'],
  value: ['number'],
  currency: ['string'],
  per: ['integer'],
  unit: ['string'],
  source: ['string'],
  evidence: ['object', 'null'],
  conflict: ['array'],
  usd_evidence: ['object', 'null'],
  assumed: ['string', 'null'],
  note: ['string', 'null'],
  usd: ['number', 'null'],
};
const ENTRY: Record<string, Kind[]> = {
  endpoint: ['object'],
  provider: ['object'],
  siblings: ['array'],
  related_capabilities: ['array'],
  call_template: ['string'],
  example_response: ['object', 'array', 'null'],
  hints: ['array'],
};

function checkFields(where: string, obj: Record<string, unknown>, spec: Record<string, Kind[]>, problems: string[]): void {
  for (const [k, kinds] of Object.entries(spec)) {
    if (!(k in obj)) problems.push(`${where}: missing ${k}`);
    else if (!is(obj[k], kinds)) problems.push(`${where}: ${k} is ${JSON.stringify(obj[k])?.slice(0, 60)}, want ${kinds.join('|')}`);
  }
}

function checkEndpoint(where: string, e: Record<string, unknown>, problems: string[]): void {
  checkFields(where, e, ENDPOINT, problems);
  for (const [k, kinds] of Object.entries(OPTIONAL)) if (k in e && !is(e[k], kinds)) problems.push(`${where}: ${k} has the wrong type`);
  if (e.kind === 'routed') checkFields(where, e, ROUTED_ONLY, problems);
  if (!['core', 'extended'].includes(e.tier as string)) problems.push(`${where}: tier ${e.tier}`);
  if (!['routed', 'data', 'utility'].includes(e.kind as string)) problems.push(`${where}: kind ${e.kind}`);
  if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(e.method as string)) problems.push(`${where}: method ${e.method}`);
  if (e.cost) {
    const c = e.cost as Record<string, unknown>;
    checkFields(`${where}.cost`, c, COST, problems);
    if (!['per_success', 'per_call', 'per_result', 'free'].includes(c.type as string)) problems.push(`${where}: cost.type ${c.type}`);
  }
  if (e.miss) checkFields(`${where}.miss`, e.miss as Record<string, unknown>, { status: ['integer'], means: ['string'] }, problems);
}

function entries(dist: string): Array<[string, Record<string, unknown>]> {
  const dir = join(dist, 'catalog', 'endpoints');
  return readdirSync(dir).map((f) => [f, JSON.parse(readFileSync(join(dir, f), 'utf8'))]);
}

describe.each([
  ['fixture', FIXTURE_DIST],
  ['real catalog-src', REAL_DIST],
])('built entries of the %s', (_name, dist) => {
  it('carry every field of the seed with its type', () => {
    const problems: string[] = [];
    const all = entries(dist);
    expect(all.length).toBeGreaterThan(0);
    for (const [file, entry] of all) {
      checkFields(file, entry, ENTRY, problems);
      checkEndpoint(`${file} endpoint`, entry.endpoint as Record<string, unknown>, problems);
      (entry.siblings as Array<Record<string, unknown>>).forEach((s, i) => checkEndpoint(`${file} siblings[${i}]`, s, problems));
      for (const r of entry.related_capabilities as Array<Record<string, unknown>>)
        checkFields(`${file} related`, r, { endpoint_id: ['string'], capability: ['string'], does: ['string'] }, problems);
      const provider = entry.provider as Record<string, unknown>;
      checkFields(`${file} provider`, provider, { service: ['string'], display_name: ['string'] }, problems);
      const endpoint = entry.endpoint as Record<string, unknown>;
      if (endpoint.kind === 'routed') {
        const routing = entry.routing as Record<string, unknown>;
        checkFields(`${file} routing`, routing, { contract: ['object'], plan: ['array'], also: ['array'], headers: ['object'] }, problems);
        checkFields(
          `${file} routing.contract`,
          routing.contract as Record<string, unknown>,
          { identity: ['array'], output: ['object'], miss: ['string'], derive: ['object'] },
          problems,
        );
        for (const p of routing.plan as Array<Record<string, unknown>>) {
          checkFields(
            `${file} plan row`,
            p,
            {
              endpoint_id: ['string'],
              accepts: ['array'],
              usd: ['number', 'null'],
              hit_rate: ['number', 'null'],
              usd_per_hit: ['number', 'null'],
              works: ['boolean'],
            },
            problems,
          );
        }
        const cost = endpoint.cost as Record<string, unknown>;
        if (cost.type !== 'per_success' || cost.source !== 'inferred' || cost.varies !== true)
          problems.push(`${file}: routed cost must be per_success, inferred, varies`);
        const prices = (routing.plan as Array<{ usd_per_hit: number | null }>).map((p) => p.usd_per_hit).filter((u) => u !== null) as number[];
        if (prices.length && cost.usd !== Math.min(...prices)) problems.push(`${file}: routed usd ${cost.usd} is not the cheapest child per hit`);
        const sorted = [...prices].sort((a, b) => a - b);
        if (JSON.stringify(prices) !== JSON.stringify(sorted)) problems.push(`${file}: plan is not ordered by usd_per_hit`);
      } else if (entry.routing !== undefined) problems.push(`${file}: routing on a non-routed entry`);
      if ((endpoint.has_example as boolean) !== (entry.example_response !== null)) problems.push(`${file}: has_example disagrees with example_response`);
      if (!(entry.call_template as string).startsWith('curl ')) problems.push(`${file}: call_template is not a curl command`);
    }
    expect(problems.slice(0, 30)).toEqual([]);
  });

  it('shelves report hidden_count and hide utility operations by default', () => {
    const dir = join(dist, 'catalog', 'platforms');
    for (const f of readdirSync(dir).filter((f) => !f.endsWith('.all.json'))) {
      const visible = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      const all = JSON.parse(readFileSync(join(dir, f.replace('.json', '.all.json')), 'utf8'));
      const count = (s: { capabilities: Array<{ operations: Array<{ kind: string }> }> }) => s.capabilities.flatMap((c) => c.operations);
      expect(Number.isInteger(visible.hidden_count)).toBe(true);
      expect(count(all).length - count(visible).length).toBe(visible.hidden_count);
      expect(count(visible).some((o) => o.kind === 'utility')).toBe(false);
    }
  });
});

function treeHash(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string) =>
    readdirSync(d)
      .sort()
      .forEach((f) => {
        const p = join(d, f);
        if (statSync(p).isDirectory()) walk(p);
        else h.update(p.slice(dir.length)).update(readFileSync(p));
      });
  walk(dir);
  return h.digest('hex');
}

describe('determinism', () => {
  it('the same input gives the same bytes', async () => {
    const a = mkdtempSync(join(tmpdir(), 'svc-det-'));
    const b = mkdtempSync(join(tmpdir(), 'svc-det-'));
    await buildCatalog({ src: FIXTURE_SRC, out: join(a, 'catalog') });
    await buildCatalog({ src: FIXTURE_SRC, out: join(b, 'catalog') });
    expect(treeHash(join(a, 'catalog'))).toBe(treeHash(join(b, 'catalog')));
  });
});

it("an operation's hint counts its routed capability's providers, not its children (a provider may serve by name and by profile)", () => {
  const entry = (id: string) => JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'endpoints', `${id}.json`), 'utf8'));
  const children: string[] = entry('svc.people.email.find').endpoint.routed_children;
  const providers = new Set(children.map((id) => id.split('.')[0])).size;
  expect(providers).toBeLessThan(children.length);
  expect(entry('hunter.people.email.find').hints).toContain(
    `Routed, with fall-through across ${children.length} operations of ${providers} providers: GET /catalog/endpoints/svc.people.email.find, or from a terminal: svc call people.email.find domain=stripe.com full_name='Jane Doe'`,
  );
});

it('only an operation its routed capability calls says it is reached by that routed call', () => {
  const dir = join(REAL_DIST, 'catalog', 'endpoints');
  const entries = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
  const children = new Set(entries.flatMap((e) => e.endpoint.routed_children ?? []));
  const claiming = entries.filter((e) => e.hints.some((h: string) => h.startsWith('Routed, with fall-through')));
  expect(claiming.length).toBeGreaterThan(100);
  expect(claiming.map((e) => e.endpoint.id).filter((id) => !children.has(id))).toEqual([]);
});

it("a routed call's samples are of the kind it takes: a company's LinkedIn page for a company, a video's address for its comments", () => {
  const entry = (id: string) => JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'endpoints', `${id}.json`), 'utf8'));
  expect(entry('svc.linkedin.company.profile').call_template).toContain('"linkedin_url":"https://www.linkedin.com/company/stripe"');
  expect(entry('svc.companies.enrich').endpoint.input.body.linkedin_url.example).toBe('https://www.linkedin.com/company/stripe');
  expect(entry('svc.companies.enrich').endpoint.input.body.linkedin_handle.example).toBe('stripe');
  expect(entry('svc.youtube.video.comments').endpoint.input.body.url.example).toMatch(/^https:\/\/www\.youtube\.com\/watch\?v=/);
  // a person's stays a person's
  expect(entry('svc.people.phone.find').call_template).toContain('linkedin.com/in/');
});

it("every routed child is on its capability's shelf: the platform of the routed entry", () => {
  const dir = join(REAL_DIST, 'catalog', 'endpoints');
  const entries = new Map<string, { platform: string; routed_children?: string[] }>(
    readdirSync(dir).map((f) => {
      const e = JSON.parse(readFileSync(join(dir, f), 'utf8')).endpoint;
      return [e.id, e];
    }),
  );
  const apart = [...entries.entries()].flatMap(([id, e]) =>
    (e.routed_children ?? [])
      .filter((c) => entries.get(c)?.platform !== e.platform)
      .map((c) => `${c} (${entries.get(c)?.platform}) under ${id} (${e.platform})`),
  );
  expect(apart).toEqual([]);
});

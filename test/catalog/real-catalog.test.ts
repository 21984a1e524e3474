// The real catalog: it builds clean, and it holds what the seed promises per routed capability.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CatalogEntry, Manifest, RuntimeCatalog } from '../../language/types.ts';
import { REAL_BUILD_RESULT, REAL_DIST } from '../helpers/paths.ts';
import { chargeMicro } from '../../language/prices.ts';
import { countRows } from '../../language/map-response.ts';
import { getPath } from '../../language/json-path.ts';

/** children at least, per the seed's capability table */
const MIN_CHILDREN: Record<string, number> = {
  'companies.similar': 3,
  'google.serp.organic': 5,
  'linkedin.company.profile': 5,
  'linkedin.user.posts': 2,
  'linkedin.post.comments': 2,
  'linkedin.post.reactions': 2,
  'linkedin.post.detail': 3,
  'youtube.video.comments': 2,
  'people.email.verify': 12,
  'people.phone.find': 15,
  'companies.enrich': 20,
  'people.email.find': 25,
  'companies.search': 23,
  'people.search': 26,
  'people.enrich': 27,
};

/** the seed's last column, "children that bill a miss" */
const SEED_BILLS_MISS: Record<string, string> = {
  'companies.similar': '3 of 3',
  'google.serp.organic': 'only the serving child is paid',
  'linkedin.company.profile': '4 of 5',
  'linkedin.user.posts': '2 of 2',
  'linkedin.post.comments': '1 of 2',
  'linkedin.post.reactions': '1 of 2',
  'linkedin.post.detail': '2 of 3',
  'youtube.video.comments': 'only the serving child is paid',
  'people.email.verify': '4 of 12',
  'people.phone.find': '0 of 15',
  'companies.enrich': 'only the serving child is paid',
  'people.email.find': '1 of 25',
  'companies.search': '17 of 23',
  'people.search': '17 of 26',
  'people.enrich': '2 of 27',
};

const dist = join(REAL_DIST, 'catalog');
const read = <T>(rel: string): T => JSON.parse(readFileSync(join(dist, rel), 'utf8')) as T;

describe('the real catalog', () => {
  it('builds without errors', () => {
    const { errors } = JSON.parse(readFileSync(REAL_BUILD_RESULT, 'utf8')) as { errors: string[] };
    expect(errors.slice(0, 40)).toEqual([]);
  });

  it("has at least the seed's number of children for each of the 15 routed capabilities", () => {
    const runtime = read<RuntimeCatalog>('runtime.json');
    const short = Object.entries(MIN_CHILDREN)
      .map(([cap, min]) => [cap, runtime.capabilities[cap]?.children.length ?? 0, min] as const)
      .filter(([, n, min]) => n < min)
      .map(([cap, n, min]) => `${cap}: ${n} < ${min}`);
    expect(short).toEqual([]);
  });

  it('every child has a sourced price, docs and an example', () => {
    const runtime = read<RuntimeCatalog>('runtime.json');
    const problems: string[] = [];
    for (const cap of Object.values(runtime.capabilities)) {
      for (const id of cap.children) {
        const e = read<CatalogEntry>(`endpoints/${id}.json`).endpoint;
        if (!e.cost || !e.cost.unit || (e.cost.source === 'estimated' ? !e.cost.assumed : !e.cost.evidence?.quote)) problems.push(`${id}: price not sourced`);
        if (e.cost && e.cost.type !== 'free' && (e.cost.usd === null || e.cost.usd < 0)) problems.push(`${id}: no USD price`);
        if (!e.docs_url) problems.push(`${id}: no docs_url`);
        if (!e.has_example) problems.push(`${id}: no example`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('runtime.json holds what a call executes: the captured examples sit in examples.json, the price words in the entries', () => {
    const runtime = read<RuntimeCatalog>('runtime.json');
    const examples = read<Record<string, unknown>>('examples.json');
    const ops = Object.values(runtime.operations);
    expect(ops.filter((op) => 'example' in op).map((op) => op.endpoint_id)).toEqual([]);
    const prose = ['evidence', 'conflict', 'usd_evidence', 'assumed', 'note'];
    expect(ops.filter((op) => op.cost && prose.some((k) => k in op.cost!)).map((op) => op.endpoint_id)).toEqual([]);
    for (const op of ops) {
      const entry = read<CatalogEntry>(`endpoints/${op.endpoint_id}.json`);
      expect(examples[op.endpoint_id] ?? null, op.endpoint_id).toEqual(entry.example_response);
      const ex = entry.example_response;
      expect(op.returns, op.endpoint_id).toEqual(ex && typeof ex === 'object' && !Array.isArray(ex) ? Object.keys(ex) : null);
      if (entry.endpoint.cost) expect(entry.endpoint.cost, op.endpoint_id).toMatchObject(op.cost!);
    }
  });

  it("a routed entry's example costs what the router would charge for that hit", () => {
    const runtime = read<RuntimeCatalog>('runtime.json');
    const problems: string[] = [];
    for (const [name, cap] of Object.entries(runtime.capabilities)) {
      const ex = read<CatalogEntry>(`endpoints/svc.${name}.json`).example_response as {
        output: Record<string, unknown>;
        raw: unknown;
        _svc: { served_by: string; cost_micro: number };
      } | null;
      if (!ex) continue;
      const op = runtime.operations[ex._svc.served_by];
      const record = op.async ? (getPath(ex.raw, op.async.result.path) ?? ex.raw) : ex.raw;
      const want = chargeMicro(op, 'hit', countRows(cap, op.response!, record, ex.output));
      if (ex._svc.cost_micro !== want) problems.push(`${name}: example says ${ex._svc.cost_micro}, the router charges ${want}`);
    }
    expect(problems).toEqual([]);
  });

  it('has at least 3 asynchronous children with complete async blocks', () => {
    const runtime = read<RuntimeCatalog>('runtime.json');
    const children = Object.values(runtime.capabilities).flatMap((c) => c.children);
    const asyncChildren = children.filter((id) => runtime.operations[id].async);
    expect(asyncChildren.length).toBeGreaterThanOrEqual(3);
    for (const id of asyncChildren) expect(runtime.operations[runtime.operations[id].async!.poll.endpoint], id).toBeDefined();
  });

  it('reaches the size targets: 80 providers, 400 operations, and the shelves', () => {
    const manifest = read<Manifest>('manifest.json');
    expect(manifest.providers).toBeGreaterThanOrEqual(80);
    expect(manifest.operations).toBeGreaterThanOrEqual(400);
    const slugs = read<{ platforms: Array<{ slug: string; operations: number }> }>('platforms.json')
      .platforms.filter((p) => p.operations > 0)
      .map((p) => p.slug);
    for (const s of ['companies', 'people', 'search', 'linkedin', 'youtube']) expect(slugs).toContain(s);
  });

  it("never serves an account operation on svc's platform key, where a team would read svc's own provider account", () => {
    const accountOps = readdirSync(join(dist, 'endpoints'))
      .map((f) => read<CatalogEntry>(`endpoints/${f}`).endpoint)
      .filter((e) => e.capability?.startsWith('account.'));
    expect(accountOps.length).toBeGreaterThan(50);
    expect(accountOps.filter((e) => e.platform_eligible).map((e) => e.id)).toEqual([]);
    expect(accountOps.filter((e) => !e.platform_blocked).map((e) => e.id)).toEqual([]);
  });

  it('every parameter description says required as a boolean, false included, on entries and their siblings', () => {
    const problems: string[] = [];
    let optional = 0;
    for (const file of readdirSync(join(dist, 'endpoints'))) {
      const entry = read<CatalogEntry>(`endpoints/${file}`);
      for (const e of [entry.endpoint, ...entry.siblings]) {
        for (const group of ['body', 'queryParams', 'pathParams'] as const) {
          for (const [name, p] of Object.entries(e.input[group] ?? {})) {
            if (typeof p.required !== 'boolean') problems.push(`${file} ${e.id} ${group}.${name}`);
            if (p.required === false) optional++;
          }
        }
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(optional).toBeGreaterThan(0);
  });

  it('writes COVERAGE.md listing every routed capability', () => {
    expect(existsSync(join(dist, 'COVERAGE.md'))).toBe(true);
    const md = readFileSync(join(dist, 'COVERAGE.md'), 'utf8');
    for (const cap of Object.keys(MIN_CHILDREN)) expect(md).toContain(`## ${cap}`);
  });

  it("COVERAGE.md puts the seed's children that bill a miss beside ours, with the reason where they differ", () => {
    const runtime = read<RuntimeCatalog>('runtime.json');
    const md = readFileSync(join(dist, 'COVERAGE.md'), 'utf8');
    expect(md).toContain("| children that bill a miss | the seed's figure | a call no child serves pays | why ours differs from the seed |");
    for (const [cap, seed] of Object.entries(SEED_BILLS_MISS)) {
      expect(runtime.capabilities[cap].misses?.seed, cap).toBe(seed);
      const row = md.split('\n').find((l) => l.startsWith(`| ${cap} |`))!;
      const [, , , ours, seedCell, , why] = row.slice(2, -2).split(' | ');
      expect(seedCell, cap).toBe(seed);
      if (ours !== seed) expect(why, cap).toBe(runtime.capabilities[cap].misses?.why);
    }
    expect(md).not.toContain('no reason recorded');
  });
});

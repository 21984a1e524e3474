// Validated sources -> everything dist/catalog holds. Pure; deterministic (same input, same output).
import type { LoadedCatalog } from './load.ts';
import type {
  CapabilityDoc,
  CapabilitySrc,
  CatalogEntry,
  CostOut,
  EndpointOut,
  FinderSrc,
  Manifest,
  OperationRuntime,
  PlatformSrc,
  RoutingBlock,
  RuntimeCatalog,
  SearchRow,
  VocabularyFileSrc,
} from '../language/types.ts';
import { costRuntime, priceMicro, resolveEndpoint } from './resolve-endpoint.ts';
import { resolveRouted, type Child } from './resolve-routing.ts';
import { shelves, type Shelf, type PlatformRow } from '../language/shelves.ts';
import { usdTextOf } from '../language/money-words.ts';
import { coverageMarkdown } from './coverage.ts';
import { resolvePageSize } from './page-size.ts';
import { routedCliTemplate } from '../language/call-template.ts';

export interface Resolved {
  /** the content hash is added by emit, from the bytes it writes */
  manifest: Omit<Manifest, 'hash'>;
  platforms: PlatformRow[];
  shelves: Shelf[];
  entries: CatalogEntry[];
  searchRows: SearchRow[];
  searchCapabilities: CapabilityDoc[];
  /** search/finder.json: the finder's words for jobs that ask svc to act */
  finder: FinderSrc;
  runtime: RuntimeCatalog;
  /** examples.json: each operation's captured example answer, by operation id (the sandbox answers from them) */
  examples: Record<string, unknown>;
  coverage: string;
}

export function resolveCatalog(cat: LoadedCatalog): Resolved {
  const platforms = new Map<string, PlatformSrc>(cat.platforms!.data.platforms.map((p) => [p.slug, p]));
  const capabilities = new Map<string, CapabilitySrc>(cat.capabilities.map((c) => [c.data.capability, c.data]));
  const example = (id: string): unknown => (cat.examples.has(id) ? JSON.parse(cat.examples.get(id)!.text) : undefined);

  const ops: Child[] = [];
  const runtime: RuntimeCatalog = { providers: {}, operations: {}, capabilities: {} };
  const examples: Record<string, unknown> = {};
  for (const { data: p } of cat.providers) {
    runtime.providers[p.service] = {
      service: p.service,
      display_name: p.display_name,
      base_url: p.base_url,
      auth: p.auth,
      ...(p.errors ? { errors: p.errors } : {}),
    };
    for (const src of p.operations) {
      const ex = example(src.id);
      const endpoint = resolveEndpoint(src, { provider: p, platforms, capabilities, hasExample: ex !== undefined });
      const rt: OperationRuntime = {
        endpoint_id: src.id,
        provider: p.service,
        method: src.method,
        path: src.path,
        input: src.input,
        cost: costRuntime(endpoint.cost),
        price_micro: priceMicro(endpoint.cost),
        bills_miss: src.bills_miss ?? src.cost?.type === 'per_call',
        ...(src.bills_contract_miss ? { bills_contract_miss: true as const } : {}),
        miss: src.miss ?? null,
        async: src.async ?? null,
        platform_eligible: endpoint.platform_eligible,
        body_allowlist: src.body_allowlist ?? false,
        strict_query: src.strict_query ?? false,
        strict_body: src.strict_body ?? false,
        returns: ex && typeof ex === 'object' && !Array.isArray(ex) ? Object.keys(ex) : null,
        ...(src.cost?.type === 'per_result' ? { page_size: resolvePageSize(src) } : {}),
        ...(src.serves ? { serves: src.serves, accepts: src.accepts, request: src.request } : {}),
        ...(src.response ? { response: src.response } : {}),
      };
      runtime.operations[src.id] = rt;
      if (ex !== undefined) examples[src.id] = ex;
      ops.push({ op: src, rt, endpoint, example: ex });
    }
  }

  const byCapability = new Map<string, Child[]>();
  for (const o of ops) {
    const group = byCapability.get(o.endpoint.capability);
    if (group) group.push(o);
    else byCapability.set(o.endpoint.capability, [o]);
  }

  // Routed entries, one per capability file.
  const routed = new Map<string, { endpoint: EndpointOut; routing: RoutingBlock; example: unknown; children: Child[] }>();
  for (const cap of capabilities.values()) {
    const members = byCapability.get(cap.capability) ?? [];
    const children = members.filter((o) => o.op.serves === cap.capability);
    const also = members.filter((o) => o.op.serves !== cap.capability).map((o) => o.endpoint);
    const r = resolveRouted(cap, children, also, platforms.get(cap.platform));
    routed.set(cap.capability, { endpoint: r.endpoint, routing: r.routing, example: r.example, children: r.ordered });
    runtime.capabilities[cap.capability] = { ...cap, children: r.ordered.map((o) => o.op.id) };
  }

  const firstIdOf = (capability: string): string | null =>
    routed.has(capability) ? `svc.${capability}` : (byCapability.get(capability)?.[0]?.endpoint.id ?? null);
  const relatedOf = (capability: string): CatalogEntry['related_capabilities'] =>
    (capabilities.get(capability)?.related ?? [])
      .map((r) => ({ endpoint_id: firstIdOf(r.capability) ?? '', capability: r.capability, does: r.does }))
      .filter((r) => r.endpoint_id);

  const entries: CatalogEntry[] = [];
  for (const r of routed.values()) {
    const siblings = r.children.map((o) => o.endpoint);
    entries.push({
      endpoint: r.endpoint,
      provider: { service: 'svc', display_name: 'svc (routed)' },
      siblings,
      related_capabilities: relatedOf(r.endpoint.capability),
      routing: r.routing,
      call_template: r.endpoint.call_template,
      example_response: r.example,
      hints: hintsFor(r.endpoint, siblings, undefined, routedCliTemplate(capabilities.get(r.endpoint.capability)!)),
    });
  }
  for (const o of ops) {
    const siblings = (byCapability.get(o.endpoint.capability) ?? []).filter((s) => s !== o).map((s) => s.endpoint);
    // the routed call is this operation's way in only where its plan holds it
    const route = routed.get(o.endpoint.capability)?.endpoint;
    const viaRoute = route?.routed_children?.includes(o.endpoint.id) ? route : undefined;
    entries.push({
      endpoint: o.endpoint,
      provider: { service: o.endpoint.provider, display_name: o.endpoint.provider_display },
      siblings,
      related_capabilities: relatedOf(o.endpoint.capability),
      call_template: o.endpoint.call_template,
      example_response: o.example ?? null,
      hints: hintsFor(o.endpoint, siblings, viaRoute, viaRoute && routedCliTemplate(capabilities.get(viaRoute.capability)!)),
    });
  }
  entries.sort((a, b) => a.endpoint.id.localeCompare(b.endpoint.id));

  const termsOf = new Map(ops.filter((o) => o.op.terms).map((o) => [o.op.id, o.op.terms!]));
  const searchRows: SearchRow[] = entries.map(({ endpoint: e }) => ({
    endpoint_id: e.id,
    name: e.name,
    summary: e.summary,
    provider: e.provider,
    provider_display: e.provider_display,
    capability: e.capability,
    kind: e.kind,
    usd: e.cost?.usd ?? null,
    ...(termsOf.has(e.id) ? { terms: termsOf.get(e.id) } : {}),
  }));
  const searchCapabilities: CapabilityDoc[] = [
    ...[...capabilities.values()].flatMap((c) =>
      c.vocabulary
        ? [
            {
              capability: c.capability,
              description: c.description,
              identity: c.identity,
              output: Object.keys(c.output),
              vocabulary: c.vocabulary,
            },
          ]
        : [],
    ),
    ...cat.vocabularies.map(({ data: v }) => unroutedDoc(v)),
  ].sort((a, b) => a.capability.localeCompare(b.capability));
  const { platformRows, shelfList } = shelves(entries, [...platforms.values()]);

  const manifest: Omit<Manifest, 'hash'> = {
    built_at: builtAt(entries),
    operations: entries.length,
    providers: cat.providers.length,
    capabilities: capabilities.size,
    platforms: platforms.size,
  };
  return {
    manifest,
    platforms: platformRows,
    shelves: shelfList,
    entries,
    searchRows,
    searchCapabilities,
    finder: cat.finder?.data ?? { acts: [], openers: [], gives: [], to_caller: [] },
    runtime,
    examples,
    coverage: coverageMarkdown(
      entries,
      runtime,
      cat.providers.map((p) => p.data),
    ),
  };
}

/** The days a price's words were read. */
function evidenceRead(c: CostOut | null): string[] {
  return c ? [c.evidence, c.usd_evidence, ...c.conflict].flatMap((e) => (e ? [e.read] : [])) : [];
}

/** An unrouted capability has no contract: any one thing the caller may bring identifies the subject, and what they get is what its words name. */
function unroutedDoc(v: VocabularyFileSrc): CapabilityDoc {
  const has = Object.keys(v.vocabulary.has);
  return {
    capability: v.capability,
    description: v.description,
    identity: has.map((f) => [f]),
    output: Object.keys(v.vocabulary.gets),
    vocabulary: v.vocabulary,
  };
}

/** Deterministic: SOURCE_DATE_EPOCH when set, else the newest date the catalog itself carries. */
function builtAt(entries: CatalogEntry[]): string {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  if (epoch) return new Date(Number(epoch) * 1000).toISOString();
  const dates = entries
    .flatMap((e) => [e.endpoint.verified, e.endpoint.added, ...evidenceRead(e.endpoint.cost)])
    .filter((d): d is string => Boolean(d))
    .sort();
  return `${dates.pop() ?? '1970-01-01'}T00:00:00.000Z`;
}

/** a routed entry's children in words: a provider with two children (a finder by name and one by profile) counts once */
function childrenSaid(children: string[]): string {
  const providers = new Set(children.map((id) => id.slice(0, id.indexOf('.')))).size;
  const said = `${providers} ${providers === 1 ? 'provider' : 'providers'}`;
  return providers === children.length ? said : `${children.length} operations of ${said}`;
}

/** `cli`: the routed call as `svc call …`, for the routed entry itself or an operation's route */
function hintsFor(e: EndpointOut, siblings: EndpointOut[], viaRoute?: EndpointOut, cli?: string): string[] {
  const hints = [`Run it: ${e.call_template}`];
  if (cli && !viaRoute) hints.push(`From a terminal: ${cli}`);
  if (viaRoute)
    hints.push(
      `Routed, with fall-through across ${childrenSaid(viaRoute.routed_children ?? [])}: GET /catalog/endpoints/${viaRoute.id}${cli ? `, or from a terminal: ${cli}` : ''}`,
    );
  const cheaper = siblings
    .filter((s) => s.kind !== 'routed' && s.cost?.usd !== null && s.cost?.usd !== undefined)
    .sort((a, b) => a.cost!.usd! - b.cost!.usd!)[0];
  if (cheaper)
    hints.push(
      `Sibling: GET /catalog/endpoints/${cheaper.id} (${cheaper.provider_display}, ${usdTextOf(cheaper.cost!.usd)} per ${cheaper.cost!.unit}; svc show ${cheaper.id})`,
    );
  return hints;
}

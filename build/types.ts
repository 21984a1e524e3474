// Shapes of catalog-src/ (what people write) and of dist/catalog/ (what the build emits).
// The JSON Schemas in build/schema/ are the authority on the source shapes; these types mirror them.

export type FieldType = 'str' | 'url' | 'int' | 'number' | 'bool' | 'list' | 'object';

export interface PlatformSrc {
  slug: string;
  label: string;
  description: string;
}

export interface FilterSrc {
  type: FieldType;
  default?: string | number | null;
  min?: number;
  max?: number;
  note: string;
}

export interface OutputFieldSrc {
  type: FieldType;
  required?: boolean;
  note?: string;
}

export interface DeriveRuleSrc {
  rule: string;
  from: string[];
}

export interface VerifySrc {
  /** routed capability that checks a hit, e.g. people.email.verify */
  capability: string;
  /** verifier input field -> this capability's output field */
  with: Record<string, string>;
  /** the hit is invalid when the verifier's output field holds one of these values */
  invalid: { field: string; in: Array<string | boolean | null> };
}

export interface CapabilitySrc {
  capability: string;
  description: string;
  platform: string;
  fields: Record<string, FieldType>;
  identity: string[][];
  filters?: Record<string, FilterSrc>;
  output: Record<string, OutputFieldSrc>;
  miss: string;
  derive?: Record<string, DeriveRuleSrc>;
  related?: Array<{ capability: string; does: string }>;
  verify?: VerifySrc;
}

export interface ParamSrc {
  type: string;
  required?: boolean;
  note?: string;
  example?: unknown;
  enum?: unknown[];
  default?: unknown;
  min?: number;
  max?: number;
}

export interface InputSrc {
  bodyType?: 'json' | 'form';
  body?: Record<string, ParamSrc>;
  queryParams?: Record<string, ParamSrc>;
  pathParams?: Record<string, ParamSrc>;
  note?: string;
}

export type CostType = 'per_success' | 'per_call' | 'per_result' | 'free';

export interface CostSrc {
  type: CostType;
  value: number;
  currency: string;
  per?: number;
  unit: string;
  /** USD for one unit (one call, one success, one result row) */
  usd: number | null;
  source: string;
  source_url?: string | null;
  checked?: string | null;
  confidence?: string | null;
  note?: string | null;
  reported_charge?: { path: string; unit: string };
}

export interface AsyncSrc {
  id_from: string;
  poll: { endpoint: string; param: { in: 'queryParams' | 'pathParams' | 'body'; name: string } };
  status: { path: string; progress: string[]; success: string[]; failure?: string[] };
  result: { path: string };
  interval: number;
  max_age?: number;
  terminal_on_submission?: boolean;
}

export interface RequestMapSrc {
  from: string;
  /** `query.x`, `body.a.b`, `body.list[]` (wrap in an array), `body[0].x`, `path.x`, `header.x` */
  to: string;
  transform?: string;
  default?: unknown;
  max?: number;
}

export interface RequestSrc {
  map: RequestMapSrc[];
  const?: { query?: Record<string, unknown>; body?: unknown; header?: Record<string, string>; path?: Record<string, string> };
  /** contract filters this child cannot apply */
  ignores?: string[];
}

export interface ResponseFieldSrc {
  path: string;
  /** map raw values onto contract values; a value mapped to null empties the field */
  values?: Record<string, string | number | boolean | null>;
  transform?: string;
  /** for list fields: keep only items whose fields equal these values */
  where?: Record<string, string | number | boolean>;
  /** for list fields: item field -> path inside each raw item */
  items?: Record<string, string>;
}

export interface ResponseSrc {
  output: Record<string, string | ResponseFieldSrc>;
  /** path of the list whose length counts rows for per_result billing */
  rows?: string;
}

export interface MissWhenSrc {
  path: string;
  in: Array<string | number | boolean | null>;
}

export interface MissSrc {
  means: string;
  /** HTTP statuses that mean "not found" */
  status?: number[];
  /** body conditions that mean "not found" */
  when?: MissWhenSrc[];
  /** the provider's own miss body, as the sandbox answers it */
  body?: unknown;
}

export interface AuthPlacementSrc {
  in: 'header' | 'query' | 'bearer' | 'basic';
  name?: string;
  prefix?: string;
  /** index into the key split on ':' (for providers that take a key and a secret) */
  part?: number;
}

export interface AuthSrc extends AuthPlacementSrc {
  env: string;
  also?: AuthPlacementSrc[];
}

export interface OperationSrc {
  id: string;
  name: string;
  summary: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  tier?: 'core' | 'extended';
  kind: 'data' | 'utility';
  domain?: string;
  scope?: string;
  platform?: string;
  capability?: string;
  cost: CostSrc | null;
  async?: AsyncSrc | null;
  input: InputSrc;
  test_request?: { body?: unknown; queryParams?: Record<string, unknown> } | null;
  status?: string | null;
  status_note?: string | null;
  superseded_by?: string | null;
  verified?: string | null;
  added?: string | null;
  docs_url: string;
  platform_eligible?: boolean;
  platform_blocked?: string | null;
  body_allowlist?: boolean;
  strict_query?: boolean;
  strict_body?: boolean;
  serves?: string;
  accepts?: string[][];
  request?: RequestSrc;
  response?: ResponseSrc;
  miss?: MissSrc | null;
  bills_miss?: boolean;
}

export interface ProviderSrc {
  service: string;
  display_name: string;
  base_url: string;
  docs_url: string;
  auth: AuthSrc;
  description?: string;
  errors?: { unauthorized?: { status: number; body: unknown } };
  defaults?: Partial<Pick<OperationSrc, 'tier' | 'domain' | 'scope' | 'platform' | 'verified' | 'added' | 'platform_eligible' | 'platform_blocked'>>;
  operations: OperationSrc[];
}

/** Where a value came from in catalog-src/, for error messages. */
export interface SourcePos {
  file: string;
  line: number;
  col: number;
}

// ---- dist/catalog shapes ----

export interface ParamOut extends ParamSrc {}

export interface CostOut {
  type: CostType;
  value: number;
  currency: string;
  per: number;
  unit: string;
  source: string;
  source_url: string | null;
  checked: string | null;
  confidence: string | null;
  note: string | null;
  varies?: boolean;
  usd: number | null;
  reported_charge?: { path: string; unit: string };
}

export interface Observed {
  samples: number;
  decided: number;
  ok_rate: number | null;
  p50_ms: number | null;
  p95_ms: number | null;
  last_ok_days: number | null;
  hit_rate: number | null;
  hit_samples: number;
}

export interface ReviewSummary {
  teams: number;
  samples: Array<{ usefulness: 'useful' | 'partly' | 'not_useful'; reason: string; client: string; month: string }>;
  share?: { useful: number; partly: number; not_useful: number };
}

export interface EndpointOut {
  id: string;
  provider: string;
  provider_display: string;
  name: string;
  summary: string;
  method: string;
  path: string;
  scope: string;
  tier: 'core' | 'extended';
  kind: 'routed' | 'data' | 'utility';
  domain: string;
  call_template: string;
  cost: CostOut | null;
  async: AsyncSrc | null;
  platform_eligible: boolean;
  platform_blocked: string | null;
  miss: { status: number; means: string } | null;
  status: string | null;
  status_note: string | null;
  superseded_by: string | null;
  verified: string | null;
  added: string | null;
  docs_url: string;
  has_example: boolean;
  input: InputSrc;
  test_request: { body?: unknown; queryParams?: Record<string, unknown> } | null;
  body_allowlist?: boolean;
  strict_query?: boolean;
  strict_body?: boolean;
  routed_children?: string[];
  capability: string;
  capability_description: string;
  platform: string;
  platform_label: string;
  observed: Observed | null;
  reviews?: ReviewSummary;
}

export interface PlanRow {
  endpoint_id: string;
  accepts: string[][];
  usd: number | null;
  hit_rate: number | null;
  usd_per_hit: number | null;
  works: boolean;
}

export interface RoutingBlock {
  contract: {
    identity: string[][];
    fields: Record<string, FieldType>;
    filters: Record<string, FilterSrc>;
    output: Record<string, OutputFieldSrc>;
    miss: string;
    derive: Record<string, DeriveRuleSrc>;
    verify?: VerifySrc;
  };
  plan: PlanRow[];
  also: Array<{ endpoint_id: string; usd: number | null }>;
  headers: Record<string, string>;
}

export interface CatalogEntry {
  endpoint: EndpointOut;
  provider: { service: string; display_name: string };
  siblings: EndpointOut[];
  related_capabilities: Array<{ endpoint_id: string; capability: string; does: string }>;
  routing?: RoutingBlock;
  call_template: string;
  example_response: unknown;
  hints: string[];
}

/** What the runtime router needs to call one child: the execution half of a provider operation. */
export interface ChildSpec {
  endpoint_id: string;
  provider: string;
  capability: string;
  method: string;
  path: string;
  accepts: string[][];
  request: RequestSrc;
  response: ResponseSrc;
  miss: MissSrc | null;
  bills_miss: boolean;
  cost: CostOut;
  price_micro: number;
  async: AsyncSrc | null;
  platform_eligible: boolean;
}

export interface ProviderRuntime {
  service: string;
  display_name: string;
  base_url: string;
  auth: AuthSrc;
  errors?: ProviderSrc['errors'];
}

export interface OperationRuntime {
  endpoint_id: string;
  provider: string;
  method: string;
  path: string;
  input: InputSrc;
  cost: CostOut | null;
  price_micro: number;
  bills_miss: boolean;
  miss: MissSrc | null;
  /** routed children only: the capability, the identity sets taken, how to ask and how to read */
  serves?: string;
  accepts?: string[][];
  request?: RequestSrc;
  response?: ResponseSrc;
  async: AsyncSrc | null;
  platform_eligible: boolean;
  body_allowlist: boolean;
  strict_query: boolean;
  strict_body: boolean;
  example: unknown;
}

/** dist/catalog/runtime.json: everything the router, the pass-through and the sandbox execute. */
export interface RuntimeCatalog {
  providers: Record<string, ProviderRuntime>;
  operations: Record<string, OperationRuntime>;
  capabilities: Record<string, CapabilitySrc & { children: string[] }>;
}

export interface SearchRow {
  endpoint_id: string;
  name: string;
  summary: string;
  provider: string;
  provider_display: string;
  capability: string;
  kind: EndpointOut['kind'];
  usd: number | null;
}

export interface Manifest {
  hash: string;
  built_at: string;
  operations: number;
  providers: number;
  capabilities: number;
  platforms: number;
}

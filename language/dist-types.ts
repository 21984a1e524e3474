// Shapes of dist/catalog/ (what the build emits and the runtime, the sandbox and a CDN read).
import type {
  AsyncSrc,
  AuthSrc,
  CapabilitySrc,
  CostType,
  DeriveRuleSrc,
  EvidenceSrc,
  FieldType,
  FilterSrc,
  InputSrc,
  MissSrc,
  OutputFieldSrc,
  PageSizeSrc,
  PriceSource,
  ProviderSrc,
  ReportedChargeSrc,
  RequestSrc,
  ResponseSrc,
  VerifySrc,
  VocabularySrc,
} from './source-types.ts';

export interface CostOut {
  type: CostType;
  value: number;
  currency: string;
  per: number;
  rows_per_unit?: number;
  min_units?: number;
  unit: string;
  /** who states the charge; `inferred` on a routed capability's entry (its children's prices) */
  source: PriceSource | 'inferred';
  evidence: EvidenceSrc | null;
  conflict: EvidenceSrc[];
  usd_evidence: EvidenceSrc | null;
  assumed: string | null;
  note: string | null;
  varies?: boolean;
  usd: number | null;
  reported_charge?: ReportedChargeSrc;
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
  /** present once a provider's answers have stated their charge (cost.reported_charge) */
  charges?: ChargeDrift;
  /** a routed entry's: what its callers paid, over the calls in the window whose cost was recorded */
  paid?: PaidPerHit;
}

/** What routed calls cost their callers, over `calls` (samples stored before costs were kept are not among them). */
export interface PaidPerHit {
  calls: number;
  hits: number;
  total_micro: number;
  /** total_micro ÷ hits, rounded to the micro-dollar; null before the first hit */
  per_hit_micro: number | null;
}

/** How the charges a provider reported compared with the catalog's price, over the latest reports. */
export interface ChargeDrift {
  /** attempts whose answer stated a charge */
  reports: number;
  /** of them, how many stated another figure than the list price; above + below */
  differed: number;
  above: number;
  below: number;
  /** the mean of reported − list over the reports that differed, micro-USD */
  mean_delta_micro: number | null;
  /** the mean of reported ÷ list over the reports that differed from a list price above 0 */
  mean_ratio: number | null;
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

/** GET /catalog/capabilities/{capability}/plan: the children in the order a call tries them, for the caller */
export interface TriedOrder {
  capability: string;
  /** whose keys the order was planned with */
  planned_for: 'your team' | 'a team without own keys';
  order: Array<{ endpoint_id: string; provider: string; key: 'own' | 'platform'; bills_miss: boolean; worst_cost_micro: number }>;
  excluded: Array<{ endpoint_id: string; reason: string }>;
}

export interface RoutingBlock {
  contract: {
    identity: string[][];
    fields: Record<string, FieldType>;
    formats: Record<string, string>;
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

export interface ProviderRuntime {
  service: string;
  display_name: string;
  base_url: string;
  auth: AuthSrc;
  errors?: ProviderSrc['errors'];
}

/**
 * An operation's price as the server executes it: the figures and the reported-charge rule, without the
 * evidence and prose (those are read from the endpoint's entry, never at call time).
 */
export type CostRuntime = Omit<CostOut, 'evidence' | 'conflict' | 'usd_evidence' | 'assumed' | 'note'>;

export interface OperationRuntime {
  endpoint_id: string;
  provider: string;
  method: string;
  path: string;
  input: InputSrc;
  cost: CostRuntime | null;
  price_micro: number;
  bills_miss: boolean;
  /** set only when true: a contract miss the provider answered is billed as an answered call */
  bills_contract_miss?: true;
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
  /** per_result operations only: the bound of a pass-through call's rows, resolved */
  page_size?: PageSizeSrc;
  /** the top-level fields of the captured example answer when it is an object, else null: what a hub step may read */
  returns: string[] | null;
}

/**
 * dist/catalog/runtime.json: everything the router and the pass-through execute, and nothing else (no
 * captured examples, no price evidence), since a server holds it in memory for as long as it runs.
 */
export interface RuntimeCatalog {
  providers: Record<string, ProviderRuntime>;
  operations: Record<string, OperationRuntime>;
  capabilities: Record<string, CapabilitySrc & { children: string[] }>;
}

/** a byte range of a file, [start, end) */
export type ByteRange = [number, number];

/**
 * dist/catalog/runtime-at.json: where each part of runtime.json lies in its bytes, so a server parses
 * an operation when it first reads it rather than every operation at start.
 */
export interface RuntimeLayout {
  providers: ByteRange;
  capabilities: ByteRange;
  operations: Record<string, ByteRange>;
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
  /** the provider's own words for this operation (OperationSrc.terms) */
  terms?: string[];
}

/** A capability as search and the finder's judge read it: its contract's shape and its vocabulary. */
export interface CapabilityDoc {
  capability: string;
  description: string;
  /** the sets of fields that identify the subject: what a caller must have */
  identity: string[][];
  /** the output contract's fields: what a caller gets */
  output: string[];
  vocabulary: VocabularySrc;
}

export interface Manifest {
  hash: string;
  built_at: string;
  operations: number;
  providers: number;
  capabilities: number;
  platforms: number;
}

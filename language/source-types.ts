// Shapes of catalog-src/ (what people write). The JSON Schemas in build/schema/ are the authority
// on these; the types mirror them.

export type FieldType = 'str' | 'url' | 'int' | 'number' | 'bool' | 'list' | 'object';

export interface PlatformSrc {
  slug: string;
  label: string;
  description: string;
}

/** finder.yaml: the words by which the finder knows a job asks svc to act rather than to read data */
export interface FinderSrc {
  /** verbs of jobs no operation does (send, book, buy…): every operation reads, finds, checks or lists */
  acts: string[];
  /** words a job may open with before its verb ("please", "can you") */
  openers: string[];
  /** acts that hand something over (send, share): followed by one of `to_caller`, a request for data */
  gives: string[];
  /** words right after one of `gives` that make the job a request for data ("me", "with us") */
  to_caller: string[];
  // those marked optional are absent from a search/finder.json written by an earlier release: read as none
  /** words that open a give's object naming a datum of someone ("the"), with `datum_of` ("of") later in it */
  datum_opens?: string[];
  datum_of?: string[];
  /** openers that ask how ("how can i"): asking how to do one of `means` asks for the means, which is data */
  asks_how?: string[];
  /** acts that reach a person (call, text): asked how, the job wants a number or an address */
  means?: string[];
  /** words that, right after an act's word, show it is the verb ("call a lead"), not a noun of a vocabulary's pair */
  determiners?: string[];
  /** platforms people read data from, covered here or not: a capability named after one (youtube.channel.videos) reads no other (absent before: none) */
  platforms?: string[];
  /** a name's last word, or the word after it, that makes it a company's ('Acme Corp'; absent before: none) */
  company_suffixes?: string[];
  /** the word right before a name that makes it a company's ('people at Acme Robotics'; absent before: none) */
  company_cues?: string[];
  /** a job naming who or what it is about, asking nothing of it: by the first field it names, the capability that tells who or what that is (absent before: none) */
  about?: Record<string, string>;
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
  /** field -> the form its values must have (language/field-formats.ts) */
  formats?: Record<string, string>;
  /** field -> the value its call template and examples send, where the shared sample would be the wrong kind (a person's LinkedIn URL for a company page) */
  samples?: Record<string, unknown>;
  identity: string[][];
  filters?: Record<string, FilterSrc>;
  output: Record<string, OutputFieldSrc>;
  miss: string;
  derive?: Record<string, DeriveRuleSrc>;
  related?: Array<{ capability: string; does: string }>;
  verify?: VerifySrc;
  misses?: MissesSrc;
  /** required by the schema; optional in the type so contracts written by hand in code need none */
  vocabulary?: VocabularySrc;
}

/** The words people use for a capability (docs/search.md): search indexes them, the finder's judge reads them. */
export interface VocabularySrc {
  /** synonyms and jargon for the job: bounce, lookalike, firmographics */
  terms: string[];
  /** whole phrasings of the job as people ask it */
  phrasings: string[];
  /** identity field -> the words a caller uses for what they have */
  has: Record<string, string[]>;
  /** output field -> the words a caller uses for what they want */
  gets: Record<string, string[]>;
  /** a `has` field any words take (a search's query): a job that names this capability's job fills it with words no phrase reads */
  free_text?: string;
}

/**
 * vocabulary/<capability>.yaml: the words of a capability that operations name (`capability:`) but no
 * file in capabilities/ routes. Its `has` keys are what a caller may bring (any one is enough) and its
 * `gets` keys what they get, since no contract names them.
 */
export interface VocabularyFileSrc {
  capability: string;
  description: string;
  vocabulary: VocabularySrc;
}

/** Who pays when children miss (docs/routing.md "Misses"), and the seed's figure beside ours. */
export interface MissesSrc {
  /** a child's miss is the subject's own truth (no results for the query, no comments on the video): it ends the call */
  final?: boolean;
  /** at most this many children that bill a miss are called in one call; the rest are skipped */
  billed_at_most?: number;
  /** the seed's "children that bill a miss": 'N of M' or 'only the serving child is paid' */
  seed?: string;
  /** why our figure differs from the seed's */
  why?: string;
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
  /** routed entries with several identity sets: one of these sets is required */
  identity_sets?: string[][];
  note?: string;
}

export type CostType = 'per_success' | 'per_call' | 'per_result' | 'free';

/** Who states a price (docs/catalog-format.md, "Prices and their evidence"). */
export type PriceSource = 'documented' | 'third_party' | 'estimated';

/** Words that state a fact: where, the words (a short quotation), the day read, and who wrote them when not the provider. */
export interface EvidenceSrc {
  url: string;
  quote: string;
  read: string;
  by?: string;
}

export interface CostSrc {
  type: CostType;
  value: number;
  currency: string;
  per?: number;
  /** per_result: rows that make one billed unit, a part block billed whole (1-10 rows = 1 unit at 10) */
  rows_per_unit?: number;
  /** per_result: the fewest units an answered call is billed (a billed miss included) */
  min_units?: number;
  unit: string;
  /** USD for one unit (one call, one success, one result row or block of rows) */
  usd: number | null;
  /** who states the charge in `currency` (type, value, unit) */
  source: PriceSource;
  /** documented and third_party: the words that state the charge */
  evidence?: EvidenceSrc;
  /** the provider's own words elsewhere that state another price; `value` bills the dearer reading */
  conflict?: EvidenceSrc[];
  /** the words that state the dollar price of one `currency` unit, where some do */
  usd_evidence?: EvidenceSrc;
  /** what nothing quoted states: the whole price when estimated, else the dollar rate */
  assumed?: string;
  note?: string | null;
  reported_charge?: ReportedChargeSrc;
}

/** Where a provider's own answer states what it charged: a path in its JSON body or a response header (exactly one), and the unit. */
export interface ReportedChargeSrc {
  path?: string;
  /** a lower-case header name */
  header?: string;
  unit: string;
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

/** One field of a list item: a path, or one or more paths whose values a named transform combines. */
export type ItemFieldSrc = string | { path: string | string[]; transform: string };

export interface ResponseFieldSrc {
  path: string;
  /** map raw values onto contract values; a value mapped to null empties the field */
  values?: Record<string, string | number | boolean | null>;
  transform?: string;
  /** for list fields: keep only items whose fields equal these values */
  where?: Record<string, string | number | boolean>;
  /** for list fields: item field -> path inside each raw item, or paths read through a named transform */
  items?: Record<string, ItemFieldSrc>;
}

export interface ResponseSrc {
  output: Record<string, string | ResponseFieldSrc>;
  /** path of the list whose length counts rows for per_result billing */
  rows?: string;
  /**
   * the most rows one answer holds: the page size the request asks for, or the provider's cap.
   * A per_result child whose request does not send the call's `limit` must say it, so its worst-case
   * charge (and the ceiling) is known before it runs.
   */
  max_rows?: number;
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

/**
 * A token svc obtains itself (OAuth2 client credentials): the key, `client_id:client_secret`, is
 * exchanged at `path` on the provider's host for an access token, which is then placed as `in` says.
 */
export interface TokenExchangeSrc {
  grant: 'client_credentials';
  /** the token endpoint, a path under the provider's base URL's host (SVC_BASE_<PROVIDER> moves it too) */
  path: string;
  /** how the id and secret travel: form fields (the default), a JSON body, or HTTP Basic */
  send?: 'form' | 'json' | 'basic';
  /** the token's life in seconds when the answer gives no expires_in */
  expires_in?: number;
  /** the provider's page that documents the exchange */
  source_url?: string;
}

export interface AuthSrc extends AuthPlacementSrc {
  env: string;
  also?: AuthPlacementSrc[];
  exchange?: TokenExchangeSrc;
}

/**
 * How many rows a pass-through call of a per_result operation may be billed for: the page size the
 * call sends in `param` (a list there counts its items), else `default`, else `max`. Where left out,
 * `param` is what a routed child maps `limit` to, and `default`/`max` come from that parameter's
 * declaration (`max` from response.max_rows last).
 */
export interface PageSizeSrc {
  /** `query.<name>` or `body.<path>`, a parameter the operation declares */
  param?: string;
  default?: number;
  max?: number;
  /**
   * where a pass-through answer lists the rows it bills (a path to a list), for an operation that
   * serves no capability (a child says it in response.rows); without it a hit bills the rows asked
   */
  rows?: string;
}

export interface OperationSrc {
  id: string;
  name: string;
  summary: string;
  /** words people use for this operation, beside its capability's vocabulary */
  terms?: string[];
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
  page_size?: PageSizeSrc;
  serves?: string;
  accepts?: string[][];
  request?: RequestSrc;
  response?: ResponseSrc;
  miss?: MissSrc | null;
  bills_miss?: boolean;
  /** the provider bills an answer it does not call a miss even when the capability's contract does */
  bills_contract_miss?: boolean;
}

/** A provider fact checked against words: the provider's own (documented) or someone else's (third_party, with `by`). */
export interface FactSrc extends EvidenceSrc {
  source: 'documented' | 'third_party';
}

/** Where the facts every call depends on are stated (docs/catalog-format.md, "Facts and their sources"). */
export interface FactsSrc {
  base_url?: FactSrc;
  auth?: FactSrc;
}

export interface ProviderSrc {
  service: string;
  display_name: string;
  base_url: string;
  docs_url: string;
  auth: AuthSrc;
  facts?: FactsSrc;
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

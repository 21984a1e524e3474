// Shapes shared by the sandbox's modules: one parsed request in, one answer out.
import type { RequestSrc } from '../language/types.ts';
import type { OperationRuntime, RuntimeCatalog } from '../language/types.ts';

export interface SandboxOptions {
  /** service -> the only key the sandbox accepts for that provider */
  keys: Record<string, string>;
  /** 0..1: share of calls that get a random fault (500, reset, garbage body, latency) */
  faultRate?: number;
  /** seed of the fault dice (default 1) */
  seed?: number;
  /** how long `slow-<service>` stalls before giving up (default 120 s) */
  stallMs?: number;
  /** how long a token from a provider's token endpoint lasts, in seconds (default 3600) */
  tokenLifeS?: number;
}

/** One provider call as the sandbox sees it, the `/<service>` prefix already removed. */
export interface SandboxRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** lower-cased names */
  headers: Record<string, string>;
  bodyText: string;
}

export interface Charge {
  endpoint_id: string;
  micro: number;
}

export type SandboxAnswer =
  | { kind: 'json'; status: number; body: unknown; delayMs?: number; charge?: Charge; headers?: Record<string, string> }
  | { kind: 'text'; status: number; text: string; contentType: string; delayMs?: number }
  | { kind: 'reset' }
  | { kind: 'stall'; ms: number };

export type BillingCounts = Record<string, { calls: number; billed_micro: number }>;

/** A catalog operation; `request` is read when the build includes the child's request mapping. */
/** The runtime catalog and each operation's captured example answer (dist/catalog/examples.json), by operation id. */
export interface SandboxCatalog extends RuntimeCatalog {
  examples: Record<string, unknown>;
}

export type SandboxOperation = OperationRuntime & { request?: RequestSrc | null };

/** Contract field -> value the caller sent (after reading the provider's parameters back). */
export type Subject = Record<string, string>;

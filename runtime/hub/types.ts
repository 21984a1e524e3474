// The hub's records: a tool (owned by one team), its numbered versions, and its runs.
export const FILE_NAMES = ['tool.json', 'input.schema.json', 'output.schema.json', 'check.json'] as const;
export type FileName = (typeof FILE_NAMES)[number];

export type VersionStatus = 'unchecked' | 'live' | 'failed';

export interface Step {
  id: string;
  /** `svc.<capability>` (routed) or a catalog operation id (called as a pass-through) */
  call: string;
  /** body field → template text or a literal JSON value */
  with: Record<string, unknown>;
}

export interface ToolFile {
  name: string;
  summary: string;
  /** checked by validate-files.ts (a number or a decimal string of USD) */
  price_usd: unknown;
  steps: Step[];
  output: Record<string, unknown>;
}

export interface CheckFile {
  input: Record<string, unknown>;
  expect?: Record<string, unknown>;
}

/** the four files, parsed */
export interface ToolSpec {
  tool: ToolFile;
  input_schema: Record<string, unknown>;
  output_schema: Record<string, unknown>;
  check: CheckFile;
}

export interface ToolRecord {
  tool_id: string;
  team_id: number;
  created_at: string;
  retired_at?: string;
}

export interface CheckResult {
  ok: boolean;
  /** when it ran (absent in records stored before it was kept: the version's live_at stands for it) */
  at?: string;
  cost_micro: number;
  ms: number;
  output?: unknown;
  /** why a check of a version already live did not pass (it stays live; readers see this check failed) */
  reason?: string;
}

export interface VersionRecord {
  tool_id: string;
  version: number;
  status: VersionStatus;
  reason?: string;
  created_at: string;
  /** when the check passed */
  live_at?: string;
  price_micro: number;
  /** the files as the maker sent them */
  files: Record<FileName, string>;
  check?: CheckResult;
}

export interface RunRecord {
  run: number;
  call_id: string;
  version: number;
  /** the calling team's slug */
  team: string;
  at: string;
  /**
   * `stopped`: a limit of the caller's own ended the run before the tool could finish (their
   * balance, their ceiling) or svc's storage did; it says nothing of the tool, so usage leaves it out
   */
  outcome: 'ok' | 'miss' | 'failed' | 'stopped';
  reason?: string;
  price_micro: number;
  steps_cost_micro: number;
  ms: number;
}

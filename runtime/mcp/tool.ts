// One MCP tool as svc defines it: its listing, and how it answers through svc's HTTP API.
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { SvcFetch } from './svc-http.ts';

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties?: Record<string, object>; required?: string[]; [k: string]: unknown };
  /** the MCP hints every tool carries: catalog reads are read-only, calls that charge are not */
  annotations: ToolAnnotations;
  call(http: SvcFetch, args: Record<string, unknown>): Promise<CallToolResult>;
}

/** a tool as tools/list shows it; a hub tool is called by its id (its listing may be stale by then) */
export type McpListing = Omit<McpTool, 'call'>;

/** a catalog read: free, changes nothing, answers from svc's own catalog */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/**
 * A call charged to the caller's balance: not read-only (it spends), not destructive (it only adds
 * ledger rows), not idempotent (each call is charged again), and open-world (providers answer it).
 */
export const PAID: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

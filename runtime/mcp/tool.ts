// One MCP tool as svc defines it: its listing, and how it answers through svc's HTTP API.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SvcFetch } from './svc-http.ts';

export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties?: Record<string, object>; required?: string[]; [k: string]: unknown };
  call(http: SvcFetch, args: Record<string, unknown>): Promise<CallToolResult>;
}

// A stored version's files, parsed back (they passed every publish check when stored).
import type { ToolSpec, VersionRecord } from './types.ts';

export function specOf(v: VersionRecord): ToolSpec {
  return {
    tool: JSON.parse(v.files['tool.json']),
    input_schema: JSON.parse(v.files['input.schema.json']),
    output_schema: JSON.parse(v.files['output.schema.json']),
    check: JSON.parse(v.files['check.json']),
  };
}

export const versionKey = (v: Pick<VersionRecord, 'tool_id' | 'version'>): string => `${v.tool_id}@${v.version}`;

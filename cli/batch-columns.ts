// What `svc batch` reads from an input row and what it writes beside it. A row's subject comes from
// its input columns only (named like the capability's fields, or mapped with --map), never from what
// an answer added. Every column svc adds gets a name no input column has: an output field whose name
// is taken is written `output.<name>`, one of svc's own columns `svc.<name>`.
import { canonical } from '../runtime/router/identical-calls.ts';
import type { Record_ } from './batch-table.ts';
import { CliFailure, EXIT } from './fail.ts';

export type FieldSchema = { type?: string | string[] };
export type Fields = Record<string, FieldSchema>;

/** svc's own output columns: who served the row, what it cost, its input position, its call id */
export const SVC_COLUMNS = ['served_by', 'cost_usd', 'row', 'call_id'] as const;
export type SvcColumn = (typeof SVC_COLUMNS)[number];

/** a cell as the JSON value its field takes (CSV cells are text; NDJSON values pass as they are) */
function typed(value: unknown, schema: FieldSchema): unknown {
  if (typeof value !== 'string') return value;
  const types = [schema.type ?? 'string'].flat();
  if ((types.includes('integer') || types.includes('number')) && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  if (types.includes('boolean') && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  // a list or an object written into a CSV cell is its JSON (as svc writes nested values)
  if ((types.includes('array') || types.includes('object')) && /^\s*[[{]/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

/** The input columns of a table: every key any row has, in the order first seen. */
export function columnsOf(rows: Record_[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const k of Object.keys(row)) seen.add(k);
  return [...seen];
}

/**
 * --map "col=field,…": each column must be one the input has and each field one the capability (or
 * tool) takes; a typo would otherwise send every row without that field, so it is a usage error before
 * anything is sent.
 */
export function parseMap(spec: string | undefined, inputColumns: readonly string[], fields: Fields, target: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of (spec ?? '').split(',').filter((s) => s.trim())) {
    const [col, field, extra] = pair.split('=').map((s) => s.trim());
    if (!col || !field || extra !== undefined) throw new CliFailure(`--map takes column=field, e.g. --map "Work Email=email"; got '${pair}'.`, EXIT.usage);
    if (!inputColumns.includes(col))
      throw new CliFailure(
        `--map names the column '${col}', which the input does not have; its columns are ${inputColumns.map((c) => `'${c}'`).join(', ')}.`,
        EXIT.usage,
      );
    if (!Object.hasOwn(fields, field))
      throw new CliFailure(`--map maps '${col}' to '${field}', which ${target} does not take; its fields are ${Object.keys(fields).join(', ')}.`, EXIT.usage);
    map.set(col, field);
  }
  return map;
}

export class Columns {
  private readonly taken: Set<string>;
  private readonly svcNames: Map<string, string>;

  constructor(
    readonly input: readonly string[],
    private readonly fields: Fields,
    private readonly map: Map<string, string>,
  ) {
    this.taken = new Set(input);
    this.svcNames = new Map(SVC_COLUMNS.map((c) => [c, this.free(c, 'svc.')]));
  }

  /** `name`, or it prefixed (as often as needed) until no input column has it */
  private free(name: string, prefix: string): string {
    let n = name;
    while (this.taken.has(n)) n = `${prefix}${n}`;
    return n;
  }

  /** the name svc writes one of its own columns (or a rejects file's) under */
  svc(name: string): string {
    return this.svcNames.get(name) ?? this.free(name, 'svc.');
  }

  /** the name an output field is written under: never an input column's or one of svc's */
  output(field: string): string {
    let n = this.free(field, 'output.');
    while ([...this.svcNames.values()].includes(n) || this.taken.has(n)) n = `output.${n}`;
    return n;
  }

  /** the subject a row sends: its input columns named like a field (or mapped), empty cells left out */
  subject(row: Record_): Record<string, unknown> {
    const subject: Record<string, unknown> = {};
    for (const column of this.input) {
      const value = row[column];
      const field = this.map.get(column) ?? column;
      if (Object.hasOwn(this.fields, field) && value !== '' && value !== null && value !== undefined) subject[field] = typed(value, this.fields[field]);
    }
    return subject;
  }

  /** of `required`, the fields no input column gives (named like it, or mapped to it) */
  lacking(required: readonly string[]): string[] {
    const given = new Set(this.input.map((c) => this.map.get(c) ?? c));
    return required.filter((f) => !given.has(f));
  }

  /** what identifies a row's content: its subject, whatever key order or cell text carried it */
  key(row: Record_): string {
    return canonical(this.subject(row));
  }

  /** the output line of an answered row: its input columns, the output fields, then svc's columns */
  line(input: Record_, rowNumber: number, answer: { output?: Record<string, unknown>; servedBy: string | null; costMicro: number; callId: string }): Record_ {
    const line: Record_ = {};
    for (const c of this.input) if (Object.hasOwn(input, c)) line[c] = input[c];
    for (const [k, v] of Object.entries(answer.output ?? {})) line[this.output(k)] = v;
    line[this.svc('served_by')] = answer.servedBy ?? '';
    line[this.svc('cost_usd')] = (answer.costMicro / 1e6).toFixed(6);
    line[this.svc('row')] = rowNumber;
    line[this.svc('call_id')] = answer.callId;
    return line;
  }
}

// `svc batch CAPABILITY FILE -o OUT`: a whole list through a running svc's batch endpoint. Columns
// named like the capability's fields (or mapped with --map col=field) make each row's subject; the
// output holds the input columns, the output fields, served_by and cost_usd. Only answered rows are
// written, as they come, so running again with the same -o calls only the rows still unanswered.
import { defineCommand } from 'citty';
import { existsSync } from 'node:fs';
import { canonical } from '../runtime/router/identical-calls.ts';
import { parseUsdCeiling } from '../runtime/state/money.ts';
import { CliFailure } from './fail.ts';
import { svcTarget, type SvcTarget } from './target.ts';
import { readTable, TableWriter, type Record_ } from './batch-table.ts';
import { Progress } from './batch-progress.ts';
import { streamBatch } from './batch-stream.ts';

/** what the server takes in one batch (runtime/batch/input.ts): longer lists go as several */
const CHUNK = 10_000;

interface Capability {
  path: string;
  fields: Record<string, { type?: string | string[] }>;
}

async function capabilityOf(target: SvcTarget, name: string): Promise<Capability> {
  const meta = (await (await fetch(`${target.url}/meta`)).json()) as { proxy_prefix: string };
  const path = `${meta.proxy_prefix}/${name}`;
  const doc = (await (await fetch(`${target.url}/openapi.json`)).json()) as { paths: Record<string, { post?: { requestBody: { content: Record<string, { schema: { properties: Capability['fields'] } }> } } }> };
  const op = doc.paths[path]?.post;
  if (!op) throw new CliFailure(`No routed capability '${name}' at ${target.url}; GET /catalog/platforms lists them.`);
  return { path, fields: op.requestBody.content['application/json'].schema.properties };
}

/** a CSV cell as the JSON value its field takes */
function typed(value: unknown, schema: { type?: string | string[] }): unknown {
  if (typeof value !== 'string') return value;
  const types = [schema.type ?? 'string'].flat();
  if ((types.includes('integer') || types.includes('number')) && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  if (types.includes('boolean') && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return value;
}

export function subjectOf(row: Record_, fields: Capability['fields'], map: Map<string, string>): Record<string, unknown> {
  const subject: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    const field = map.get(column) ?? column;
    if (Object.hasOwn(fields, field) && value !== '' && value !== null && value !== undefined) subject[field] = typed(value, fields[field]);
  }
  return subject;
}

function parseMap(specs: string[]): Map<string, string> {
  return new Map(specs.flatMap((s) => s.split(',')).filter(Boolean).map((s) => {
    const [col, field] = s.split('=');
    if (!col || !field) throw new CliFailure(`--map takes column=field, e.g. --map "Work Email=email"; got '${s}'.`);
    return [col.trim(), field.trim()];
  }));
}

/** the output row: input columns, then the output fields (prefixed where a name is taken), served_by, cost_usd */
function outputRow(input: Record_, output: Record<string, unknown> | undefined, servedBy: string | null, costMicro: number): Record_ {
  const row: Record_ = { ...input };
  for (const [k, v] of Object.entries(output ?? {})) row[Object.hasOwn(input, k) ? `output.${k}` : k] = v;
  return { ...row, served_by: servedBy ?? '', cost_usd: (costMicro / 1e6).toFixed(6) };
}

export const batch = defineCommand({
  meta: { name: 'batch', description: 'Run a CSV or NDJSON list through a routed capability (reads SVC_URL and SVC_TOKEN); resumable with the same -o' },
  args: {
    capability: { type: 'positional', required: true, description: 'routed capability, e.g. people.email.find' },
    file: { type: 'positional', required: true, description: 'input list: .csv with a header row, or .ndjson/.jsonl' },
    out: { type: 'string', alias: 'o', required: true, description: 'output file (.csv or .ndjson); rows already in it are not called again' },
    map: { type: 'string', description: 'column=field pairs, comma separated, for columns not named like the field' },
    'max-cost': { type: 'string', description: 'most the whole run may spend, in USD' },
    concurrency: { type: 'string', default: '8', description: 'rows in flight at once (1..32)' },
  },
  async run({ args }) {
    const target = svcTarget();
    let budgetMicro: number | null = null;
    if (args['max-cost'] !== undefined) {
      budgetMicro = parseUsdCeiling(args['max-cost']);
      if (budgetMicro === null) throw new CliFailure(`--max-cost takes a USD amount such as 5 or 0.25; got '${args['max-cost']}'.`);
    }
    const cap = await capabilityOf(target, args.capability);
    const map = parseMap([args.map ?? '']);
    const input = readTable(args.file);
    const done = existsSync(args.out) ? readTable(args.out) : [];
    const answered = new Set(done.map((r) => canonical(subjectOf(r, cap.fields, map))));
    const todo = input.map((row, i) => ({ id: i + 1, row, subject: subjectOf(row, cap.fields, map) })).filter((r) => !answered.has(canonical(r.subject)));
    const writer = new TableWriter(args.out, done);
    const progress = new Progress(todo.length);
    let left = budgetMicro;
    let unanswered = 0;
    /** rows answered 422: their subject cannot be routed as it is, so running again would not help */
    let refused = 0;
    for (let start = 0; start < todo.length; start += CHUNK) {
      if (left !== null && left <= 0) { unanswered += todo.length - start; break; }
      const chunk = todo.slice(start, start + CHUNK);
      const rowOf = new Map(chunk.map((r) => [r.id, r.row]));
      const headers: Record<string, string> = { 'x-svc-batch-concurrency': args.concurrency };
      if (left !== null) headers['x-svc-batch-max-cost'] = (left / 1e6).toFixed(6);
      await streamBatch(target, cap.path, chunk, headers, (line) => {
        if (line.event === 'summary') { if (left !== null) left -= line.cost_micro ?? 0; return; }
        const cost = line._svc?.cost_micro ?? 0;
        progress.row(Boolean(line._svc?.served_by), cost);
        // answered rows (hit or miss) are kept; failed and skipped rows are left for the next run, and
        // so is a row the balance stopped (held by rows in flight): no provider answered it, as a 402
        if (line.status === 200 && line._svc && line._svc.stopped !== 'balance') writer.write(outputRow(rowOf.get(line.id)!, line.output, line._svc.served_by, cost));
        else if (line.status === 422) refused++;
        else unanswered++;
      });
    }
    progress.finish([
      done.length ? `  (${done.length} answered before)` : '',
      unanswered ? `  ${unanswered} rows not answered: run again to retry them` : '',
      refused ? `  ${refused} rows refused as sent (422, e.g. no identity field): a retry will not change that; fix their input` : '',
    ].join(''));
  },
});

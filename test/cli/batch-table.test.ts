// What `svc batch` writes into a CSV cell: a value a reader can tell apart from an empty one.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { expect, it } from 'vitest';
import { TableWriter } from '../../cli/batch-table.ts';

it('writes booleans as true and false, so false is not read as an empty cell (no answer)', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'svc-table-')), 'out.csv');
  const w = new TableWriter(out, null);
  w.write({ email: 'jane@acme.com', catch_all: false, disposable: true, free: null, score: 0, tags: ['a'] });
  expect(parse(readFileSync(out, 'utf8'), { columns: true })).toEqual([
    { email: 'jane@acme.com', catch_all: 'false', disposable: 'true', free: '', score: '0', tags: '["a"]' },
  ]);
});

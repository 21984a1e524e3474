// `svc catalog drift`: operations whose providers' answers reported charges other than the catalog's
// price (GET /catalog/drift), the most often differing first.
import { defineCommand } from 'citty';
import { baseUrl, ok } from './http.ts';
import { json, note, out, printJson, table, usd, usdOf } from './print.ts';
import type { DriftReport } from '../runtime/catalog/drift.ts';

const drift = defineCommand({
  meta: { name: 'drift', description: 'Operations whose providers reported charging other than the list price' },
  args: { json },
  async run({ args }) {
    const res = await ok<DriftReport>(`${baseUrl()}/catalog/drift`);
    if (args.json) return printJson(res);
    if (!res.operations.length) {
      note(res.hints.join('\n'));
      return;
    }
    out(
      table(
        ['ID', 'LIST', 'REPORTS', 'DIFFERED', 'ABOVE', 'BELOW', 'MEAN DIFF', 'MEAN RATIO'],
        res.operations.map((r) => [
          r.endpoint_id,
          r.usd === null ? '-' : `${usdOf(r.usd)} per ${r.unit}`,
          r.reports,
          r.differed,
          r.above,
          r.below,
          usd(r.mean_delta_micro),
          r.mean_ratio === null ? '-' : `×${r.mean_ratio}`,
        ]),
      ),
    );
    note(`${res.operations.length} of ${res.watched} operations that state their charge reported another figure than their price`);
  },
});

export const catalog = defineCommand({
  meta: { name: 'catalog', description: 'The catalog as its providers bill it: svc catalog drift' },
  subCommands: { drift },
});

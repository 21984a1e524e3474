// catalog/COVERAGE.md: the market per routed capability at a glance, generated on every build.
import { GENERATED } from './emit.ts';
import type { CatalogEntry, RuntimeCatalog } from './types.ts';

export function coverageMarkdown(entries: CatalogEntry[], runtime: RuntimeCatalog): string {
  const byId = new Map(entries.map((e) => [e.endpoint.id, e.endpoint]));
  const routed = entries.filter((e) => e.routing).sort((a, b) => a.endpoint.id.localeCompare(b.endpoint.id));
  const lines = [`<!-- ${GENERATED} -->`, '# Coverage of routed capabilities', ''];
  lines.push('| capability | children | price per hit (USD) | children that bill a miss |', '|---|---|---|---|');
  for (const r of routed) {
    const plan = r.routing!.plan;
    const prices = plan.map((p) => p.usd_per_hit).filter((u): u is number => u !== null);
    const billing = plan.filter((p) => runtime.operations[p.endpoint_id]?.bills_miss).length;
    lines.push(`| ${r.endpoint.capability} | ${plan.length} | ${prices.length ? `${Math.min(...prices)} – ${Math.max(...prices)}` : '–'} | ${billing} of ${plan.length} |`);
  }
  for (const r of routed) {
    lines.push('', `## ${r.endpoint.capability}`, '', r.endpoint.summary, '', '| child | provider | price | USD per hit | bills a miss |', '|---|---|---|---|---|');
    for (const p of r.routing!.plan) {
      const e = byId.get(p.endpoint_id)!;
      const c = e.cost;
      const price = c ? `${c.type}: ${c.value} ${c.currency} per ${c.per > 1 ? `${c.per} ` : ''}${c.unit}` : '–';
      lines.push(`| ${e.id} | ${e.provider_display} | ${price} | ${p.usd_per_hit ?? '–'} | ${runtime.operations[e.id]?.bills_miss ? 'yes' : 'no'} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

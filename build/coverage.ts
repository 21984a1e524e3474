// catalog/COVERAGE.md: the market per routed capability at a glance, generated on every build.
import { GENERATED } from './generated.ts';
import type { CapabilitySrc, CatalogEntry, ProviderSrc, RuntimeCatalog } from '../language/types.ts';
import { evidenceMarkdown } from './coverage-evidence.ts';
import { missMayCost } from '../language/prices.ts';
import { priceTrust } from '../language/price-words.ts';

/** Who pays when no child serves, as the router applies the capability's `misses` block. */
function unservedPays(cap: CapabilitySrc | undefined): string {
  if (cap?.misses?.final) return 'the first child that misses (a miss is final)';
  const most = cap?.misses?.billed_at_most;
  if (most !== undefined) return `at most ${most} child${most === 1 ? '' : 'ren'} that bill${most === 1 ? 's' : ''} a miss`;
  return 'every child tried that bills a miss';
}

/** The seed's figure, and why ours differs where a reason is recorded (or that none is). */
function seedColumns(cap: CapabilitySrc | undefined, ours: string): [string, string] {
  const seed = cap?.misses?.seed;
  if (!seed) return ['not in the seed', cap?.misses?.why ?? '–'];
  const differs = /^\d+ of \d+$/.test(seed) && seed !== ours;
  return [seed, cap?.misses?.why ?? (differs ? 'differs; no reason recorded' : '–')];
}

export function coverageMarkdown(entries: CatalogEntry[], runtime: RuntimeCatalog, providers: ProviderSrc[]): string {
  const byId = new Map(entries.map((e) => [e.endpoint.id, e.endpoint]));
  const routed = entries.filter((e) => e.routing).sort((a, b) => a.endpoint.id.localeCompare(b.endpoint.id));
  const billing = (id: string) => Boolean(runtime.operations[id] && missMayCost(runtime.operations[id]));
  const lines = [`<!-- ${GENERATED} -->`, '# Coverage of routed capabilities', ''];
  lines.push(
    '"Children that bill a miss" counts the children charged for a miss by their provider\'s pricing (a contract miss',
    "the provider bills as an answer included); the seed's",
    'figure stands beside ours. "A call no child serves pays" is the router\'s rule for the capability',
    '(docs/routing.md, "Misses").',
    '',
    "| capability | children | price per hit (USD) | children that bill a miss | the seed's figure | a call no child serves pays | why ours differs from the seed |",
    '|---|---|---|---|---|---|---|',
  );
  for (const r of routed) {
    const plan = r.routing!.plan;
    const cap = runtime.capabilities[r.endpoint.capability!];
    const prices = plan.map((p) => p.usd_per_hit).filter((u): u is number => u !== null);
    const ours = `${plan.filter((p) => billing(p.endpoint_id)).length} of ${plan.length}`;
    const [seed, why] = seedColumns(cap, ours);
    lines.push(
      `| ${r.endpoint.capability} | ${plan.length} | ${prices.length ? `${Math.min(...prices)} – ${Math.max(...prices)}` : '–'} | ${ours} | ${seed} | ${unservedPays(cap)} | ${why} |`,
    );
  }
  lines.push(...evidenceMarkdown(providers));
  for (const r of routed) {
    lines.push(
      '',
      `## ${r.endpoint.capability}`,
      '',
      r.endpoint.summary,
      '',
      '| child | provider | price | USD per hit | bills a miss | stated by |',
      '|---|---|---|---|---|---|',
    );
    for (const p of r.routing!.plan) {
      const e = byId.get(p.endpoint_id)!;
      const c = e.cost;
      const price = c ? `${c.type}: ${c.value} ${c.currency} per ${c.per > 1 ? `${c.per} ` : ''}${c.unit}` : '–';
      lines.push(`| ${e.id} | ${e.provider_display} | ${price} | ${p.usd_per_hit ?? '–'} | ${billing(e.id) ? 'yes' : 'no'} | ${c ? priceTrust(c) : '–'} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

// COVERAGE.md's evidence section: per provider, who states its routed children's prices, whether a
// credit's dollar rate is stated, and where its base URL and auth are stated; what is still unknown.
import { inDollars } from '../language/price-words.ts';
import type { FactSrc, OperationSrc, ProviderSrc } from '../language/types.ts';

type Counts = { documented: number; third_party: number; estimated: number };

const count = (ops: OperationSrc[]): Counts => ({
  documented: ops.filter((o) => o.cost?.source === 'documented').length,
  third_party: ops.filter((o) => o.cost?.source === 'third_party').length,
  estimated: ops.filter((o) => !o.cost || o.cost.source === 'estimated').length,
});

/** Stated or assumed, for the children whose stated charge is in credits or another non-dollar unit. */
function dollarRate(ops: OperationSrc[]): string {
  const inCredits = ops.filter((o) => o.cost && o.cost.source !== 'estimated' && o.cost.type !== 'free' && !inDollars(o.cost.currency));
  if (!inCredits.length) return '–';
  const stated = inCredits.filter((o) => o.cost!.usd_evidence).length;
  return stated === inCredits.length ? 'stated' : stated ? `stated for ${stated} of ${inCredits.length}` : 'assumed';
}

function fact(f: FactSrc | undefined): string {
  return f ? (f.source === 'documented' ? 'documented' : 'third-party') : 'unchecked';
}

export function evidenceMarkdown(providers: ProviderSrc[]): string[] {
  const rows = providers.map((p) => ({ p, children: p.operations.filter((o) => o.serves) })).sort((a, b) => a.p.service.localeCompare(b.p.service));
  const all = rows.flatMap((r) => r.children);
  const total = count(all);
  const factsOf = (k: 'base_url' | 'auth') => providers.filter((p) => p.facts?.[k]).length;
  const lines = [
    '',
    '## Prices and facts: who states them',
    '',
    'Per provider, who states the price of each routed child (docs/catalog-format.md, "Prices and their evidence"):',
    "**documented** quotes the provider's own page or repository, **third-party** quotes someone else, **estimated**",
    'is stated by nobody and says what it assumes. "Dollar rate" says whether a credit\'s price in USD is stated too, for',
    'documented and third-party prices in credits. "Base URL" and "auth" say where those facts are stated.',
    '',
    `Routed children: ${all.length}; documented ${total.documented}, third-party ${total.third_party}, estimated ${total.estimated}.`,
    `Providers whose base URL is stated: ${factsOf('base_url')} of ${providers.length}; whose auth is stated: ${factsOf('auth')} of ${providers.length}.`,
    '',
    '| provider | routed children | documented | third-party | estimated | dollar rate | conflicting sources | base URL | auth | still unknown |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { p, children } of rows) {
    const c = count(children);
    const conflicts = children.reduce((n, o) => n + (o.cost?.conflict?.length ?? 0), 0);
    const unknown = children.filter((o) => !o.cost || o.cost.source === 'estimated').map((o) => o.id.slice(p.service.length + 1));
    lines.push(
      `| ${p.service} | ${children.length} | ${c.documented} | ${c.third_party} | ${c.estimated} | ${dollarRate(children)} | ${conflicts || '–'} | ${fact(p.facts?.base_url)} | ${fact(p.facts?.auth)} | ${unknown.length ? unknown.join(', ') : '–'} |`,
    );
  }
  return lines;
}

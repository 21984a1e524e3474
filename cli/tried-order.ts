// `svc show` of a routed entry: the order its children are tried in, as the server's planner runs
// it for this caller (own keys counted when SVC_TOKEN is set), apart from the market's price order.
import type { TriedOrder } from '../language/dist-types.ts';
import { baseUrl, ok, pathId } from './http.ts';
import { table, usd } from './print.ts';

export async function triedOrderText(capability: string, env = process.env): Promise<string> {
  const headers: Record<string, string> = env.SVC_TOKEN ? { 'x-svc-token': env.SVC_TOKEN } : {};
  const o = await ok<TriedOrder>(`${baseUrl(env)}/catalog/capabilities/${pathId(capability)}/plan`, { headers });
  const rows = o.order.map((a, i) => [String(i + 1), a.endpoint_id, a.key, a.bills_miss ? 'yes' : 'no', usd(a.worst_cost_micro)]);
  const left = o.excluded.length ? `\nnot tried: ${o.excluded.map((x) => `${x.endpoint_id} (${x.reason.replaceAll('_', ' ')})`).join(', ')}` : '';
  return `tried in this order until one hits, for ${o.planned_for} (own keys, then free misses, then cheapest per hit):\n${
    rows.length ? table(['#', 'CHILD', 'KEY', 'BILLS A MISS', 'WORST'], rows) : 'nothing can be tried'
  }${left}`;
}

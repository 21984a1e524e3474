// What the MCP server tells an agent at initialize: how money works here, in a few lines, since
// the agent spends a real team's balance.
import { DEFAULT_MAX_COST_MICRO } from '../../language/route-options.ts';

export const INSTRUCTIONS = [
  'svc finds and calls paid data APIs. Money: every paid tool charges the balance of the team whose token this session uses; nothing else pays.',
  'Free: search_catalog, find_operations and show_operation only read the catalog.',
  `Paid: each routed tool (e.g. people_email_find) is one call: svc tries providers in order until one answers and charges what the attempts cost, never more than max_cost USD (default ${(DEFAULT_MAX_COST_MICRO / 1e6).toFixed(2)}) for the whole call. Set max_cost lower to cap it; dry_run: true answers the plan and its worst cost without calling or charging anything.`,
  'Misses: a miss (hit: false) is a normal answer, not an error; it may still cost something where a provider bills a search that finds nothing (cost_usd says what was charged). Each answer names its call_id, as the team ledger does.',
  "Hub tools (hub_…) are made by other teams or yours, not by svc: a run costs the tool's price plus its steps' charges (the description gives the price). Send the version listed: that version runs at that price (without it, the newest live version runs at its own), and when it no longer serves svc says so and you list the tools again. max_cost caps a whole run; dry_run: true plans it for free. Only the hub tools the team chose are listed, searched and shown.",
  'Refusals (402: balance too low, 422: a bad argument) are tool errors with a sentence and the call_id; they charge nothing, except that a hub run refused at a later step keeps its earlier steps charged.',
].join('\n');

// A routed world (runtime + sandbox on loopback) with two funded teams: the maker of the tools and
// another team that calls them.
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';

export interface HubWorld extends RoutedWorld {
  other: { token: string; teamId: number; slug: string };
  req(method: string, path: string, body?: unknown, token?: string | null): Promise<{ status: number; headers: Headers; body: any }>;
  /** a team of its own with `creditMicro`, for tests that watch one balance */
  team(name: string, creditMicro: number): Promise<{ token: string; teamId: number }>;
  /** what a team was charged, by call id, from the first page of its ledger */
  chargedByCall(teamId: number): Promise<Map<string, number>>;
  /** what the maker has earned */
  earnings(): Promise<number>;
}

/** `env` as for the runtime (a judge that fails, for instance) */
export async function hubWorld(env: Record<string, string> = {}): Promise<HubWorld> {
  const w = await routedWorld(FIXTURE_DIST, { creditMicro: 100_000_000, env });
  const made = (await w.ctx.state.createTeam('other team', 100_000_000))!;
  const req: HubWorld['req'] = async (method, path, body, token = w.token) => {
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    if (token) headers['x-svc-token'] = token;
    const r = await fetch(w.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : null };
  };
  const team: HubWorld['team'] = async (name, creditMicro) => {
    const t = (await w.ctx.state.createTeam(name, creditMicro))!;
    return { token: t.token, teamId: t.team.id };
  };
  const chargedByCall: HubWorld['chargedByCall'] = async (teamId) => {
    const byCall = new Map<string, number>();
    for (const e of (await w.ctx.state.ledger(teamId, null)).entries)
      if (e.kind === 'charge') byCall.set(e.call_id ?? '', (byCall.get(e.call_id ?? '') ?? 0) - e.amount_micro);
    return byCall;
  };
  const earnings = async () => (await w.ctx.state.account(w.teamId)).earnings_micro;
  return Object.assign(w, { other: { token: made.token, teamId: made.team.id, slug: made.team.slug }, req, team, chargedByCall, earnings });
}

// One catalog operation called as the provider defines it: the declared method and path only, the
// declared parameters only where the entry is strict, the key injected server-side, charged like a
// one-child routed call (through Spending.spend), answered with the provider's own status and body
// (a key the provider refuses is a 502 that says whose key it was). A router method: it takes plain
// request data, so the pass-through route and a hub step call it alike.
import type { OperationRuntime, RuntimeCatalog } from '../../language/types.ts';
import type { Team } from '../state/index.ts';
import { balanceTooLow, fail, type PlainAnswer } from '../util/fail.ts';
import { getPath } from '../../language/json-path.ts';
import { OutgoingRequest, providerUrl } from './build-request.ts';
import { isUnsafePath } from '../../language/paths.ts';
import { placeKey, platformKey } from '../../language/provider-auth.ts';
import { send, type ChildAnswer } from './http.ts';
import { classifyStatus, KEY_TROUBLE } from './classify.ts';
import { redact } from './redact.ts';
import { tokens, TokenRefused } from './token-exchange.ts';
import { chargeMicro } from '../../language/prices.ts';
import { decideCharge, ledgerFigures, type ChargeDecision } from '../../language/reported-charge.ts';
import { checkBody, checkPath, checkQuery } from './pass-through-input.ts';
import { holdMicro, rowsAsked } from './pass-through-rows.ts';
import { catalogPath, matchReadings, templateOf } from './pass-through-match.ts';
import { pathParams } from '../../language/paths.ts';
import { countRows, mapOutput, missWhen } from '../../language/map-response.ts';
import { CALL_ID_HEADER } from '../util/call-id.ts';
import { pollJob } from './poll.ts';
import { passThroughOptions, refuseOverCeiling } from './pass-through-options.ts';
import type { HeaderReader } from './options.ts';
import type { RouterDeps } from './outcome.ts';
import { DEFAULT_TIMEOUT_MS } from '../../language/route-options.ts';

/** A pass-through call as plain data, whichever door it came by. */
export interface PassThroughRequest {
  provider: string;
  method: string;
  /** the path under the provider, as sent ('/' when none) */
  path: string;
  query: URLSearchParams;
  headers: HeaderReader;
  /** the JSON body; undefined when none was sent or the method carries none */
  body: unknown;
}

/** Statuses by which a provider refuses the key itself (429 and 402 speak of its quota, and pass on as they are). */
const KEY_REFUSED = new Set([401, 403]);

/** Rows a per-result answer bills: counted as the routed call would for a routed child, else from the list page_size.rows names; with neither, the rows asked. */
function rowsOf(runtime: RuntimeCatalog, op: OperationRuntime, body: unknown, asked: number): number {
  const cap = op.serves ? runtime.capabilities[op.serves] : undefined;
  if (cap && op.response) return countRows(cap, op.response, body, mapOutput(cap, op.response, body));
  if (!op.page_size?.rows) return asked;
  const list = getPath(body, op.page_size.rows);
  return Array.isArray(list) ? list.length : 0;
}

/**
 * A provider refusing the key svc sent (401/403): a 502, since the caller's own credential was fine,
 * naming whose key it was, with the provider's status and body beside the sentence.
 */
function keyRefused(
  provider: string,
  display: string,
  own: boolean,
  answer: { status: number; body: unknown; text: string },
  key: string,
  callId: string,
): PlainAnswer {
  const whose = own
    ? `${display} refused your team's stored key for '${provider}' (HTTP ${answer.status}); nothing was charged. svc sets that key aside for a while: replace it with POST /teams/me/keys/${provider}.`
    : `${display} refused svc's platform key (HTTP ${answer.status}); nothing was charged. Your svc credential is fine: this is on svc's side.`;
  const body = answer.body === undefined ? answer.text : answer.body;
  return {
    status: 502,
    headers: { 'content-type': 'application/json', [CALL_ID_HEADER]: callId, 'x-svc-cost-micro': '0' },
    text: redact(JSON.stringify({ detail: whose, provider_status: answer.status, provider_body: body, call_id: callId }), key),
  };
}

/** what the provider's answer came to: how it ended, the answer that ended it, its list price and what is charged */
interface Answered {
  /** the operation the answer was charged as: the call's, or of one request's readings the dearest it fulfils */
  as: string;
  outcome: 'hit' | 'miss' | 'error';
  final: ChildAnswer;
  first: ChildAnswer;
  price: number;
  /** the list price beside the provider's own figure, where its answer stated one */
  decided: ChargeDecision | null;
}

/** The credential to place: the key, or the token it is exchanged for; a refused exchange is a 502 naming whose credential it was. */
async function exchanged(deps: RouterDeps, team: Team, provider: string, key: string, own: boolean, ids: Record<string, string>): Promise<string> {
  try {
    return await tokens.credential(deps.runtime.providers[provider], key, deps.env, deps.attemptTimeoutMs, deps.maxAnswerBytes);
  } catch (e) {
    if (!(e instanceof TokenRefused)) throw e;
    if (own && e.status !== undefined && KEY_TROUBLE.has(e.status)) deps.health.coolOwnKey(team.id, provider);
    return fail(
      502,
      `${e.message} ${own ? `The key is your team's stored key for '${provider}'.` : "It is svc's platform key: your svc credential is fine."} Nothing was charged.`,
      { ...ids, 'x-svc-cost-micro': '0' },
    );
  }
}

/**
 * Both figures where the provider stated its charge (X-Svc-Cost-Micro follows its own), and the
 * ceiling where the charge stopped at it: a report past it, or more rows than asked at list price.
 */
function chargeHeaders(d: ChargeDecision | null): Record<string, string> {
  if (!d) return {};
  return {
    ...(d.reported || d.cap_micro !== undefined ? { 'x-svc-list-micro': String(d.list_micro) } : {}),
    ...(d.reported ? { 'x-svc-reported-micro': String(d.reported.micro) } : {}),
    ...(d.cap_micro !== undefined ? { 'x-svc-cap-micro': String(d.cap_micro) } : {}),
  };
}

/**
 * `callId`: the id the answer and the ledger row carry (a hub run gives its own). Refusals before
 * the provider is called, and a provider that failed, are thrown (errors.ts shapes them).
 */
export async function passThrough(deps: RouterDeps, team: Team, req: PassThroughRequest, callId: string): Promise<PlainAnswer> {
  const { runtime, state, health, env } = deps;
  const { provider, method, body } = req;
  const path = catalogPath(runtime, provider, req.path);
  if (isUnsafePath(path)) fail(400, 'The path may not contain dot segments or encoded slashes.');
  const options = passThroughOptions(req.headers);
  // operations sharing one path are told apart by what the call sends; one request described twice is each reading of it
  const readings = matchReadings(runtime, provider, method, path, req.query, body);
  const [op] = readings;
  const prov = runtime.providers[provider];
  checkPath(op, pathParams(templateOf(op), path));
  checkQuery(op, req.query);
  if (op.method !== 'GET' && op.method !== 'DELETE') checkBody(op, body);
  const asked = rowsAsked(op, req.query, body);
  const own = !health.ownKeyCooling(team.id, provider) ? await state.ownKey(team.id, provider) : null;
  const key = own ?? (op.platform_eligible ? platformKey(prov, env) : null);
  if (!key) fail(403, `svc holds no key for '${provider}' that may serve this operation; store your own with POST /teams/me/keys/${provider}.`);
  const pays = own === null;
  const worst = Math.max(...readings.map((r) => holdMicro(r, asked)));
  refuseOverCeiling(options, op.endpoint_id, worst);
  const ids = { [CALL_ID_HEADER]: callId };
  // the routed dry run's answer for a plan of one: what the call would hold, nothing called or charged
  if (options.dryRun) {
    // a stored key the call does not use is one its provider refused lately: say so, and until when
    const setAside = pays && (await state.ownKey(team.id, provider)) !== null ? health.setAside(team.id, [provider]) : [];
    const plan = {
      plan: [{ endpoint_id: op.endpoint_id, key: pays ? 'platform' : 'own', worst_cost_micro: worst }],
      excluded: [],
      worst_cost_micro: worst,
      own_keys_set_aside: setAside,
    };
    return { status: 200, headers: { 'content-type': 'application/json', ...ids }, text: JSON.stringify(plan) };
  }
  const target = providerUrl(prov, env, path);
  if (!target) fail(400, "That path leaves the provider's host.");
  const credential = await exchanged(deps, team, provider, key, own !== null, ids);
  const query = new URLSearchParams(req.query);
  const headers: Record<string, string> = { accept: 'application/json' };
  placeKey(prov, credential, query, headers);
  target.search = query.toString();
  if (body !== undefined) headers['content-type'] = 'application/json';
  // connections are kept apart per credential: a provider's stray answer can never reach another key's call
  const outgoing = OutgoingRequest.to(op.method, target, headers, body === undefined ? null : JSON.stringify(body), key);
  const call = () => called(deps, readings, outgoing, key, asked, options.maxCostMicro ?? Number.MAX_SAFE_INTEGER);
  let answered: Answered;
  let cost: number;
  if (pays) {
    // the team's own key holds and charges nothing: the provider bills the team
    const spent = await deps.spending.spend({
      teamId: team.id,
      worst,
      ref: { endpoint_id: op.endpoint_id, call_id: callId },
      run: async () => {
        const result = await call();
        return { price: result.price, result, figures: { ...ledgerFigures(result.decided), endpoint_id: result.as } };
      },
    });
    if ('refused' in spent) {
      if (spent.refused.why === 'held') fail(402, 'Balance is held by calls in flight; retry when they finish.', ids);
      balanceTooLow(
        worst,
        `Balance too low: ${op.endpoint_id} may cost ${worst} micro-USD${op.page_size ? ` for the ${asked} rows this call may return` : ''} and the balance is ${spent.refused.balance_micro} micro-USD; nothing was called or charged.`,
      );
    }
    // More rows than were asked and held for, past what the balance covers: the hold charges what
    // was held, and the answer says so (spending.ts).
    answered = spent.result;
    cost = spent.charged;
  } else {
    answered = await call();
    cost = answered.price;
  }
  const { outcome, final, first, decided } = answered;
  if (own && KEY_TROUBLE.has(first.status)) health.coolOwnKey(team.id, provider);
  if (first.status === 401) tokens.forget(prov, key, deps.env, credential);
  if (outcome === 'error' && KEY_REFUSED.has(first.status)) return keyRefused(provider, prov.display_name, own !== null, first, key, callId);
  return {
    status: final.status,
    // whose key served: with the team's own, the cost is the provider's bill to the team, not a charge to the balance
    headers: {
      'content-type': final.body === undefined ? 'text/plain; charset=utf-8' : 'application/json',
      ...ids,
      'x-svc-cost-micro': String(cost),
      'x-svc-key': pays ? 'platform' : 'own',
      ...chargeHeaders(decided),
    },
    text: redact(final.text, key, credential),
  };
}

/**
 * The provider called, an async job polled to its end, and the price of how it ended. A provider
 * that failed is a 502 (nothing charged). Bounded by svc's own limits only: a request that reached
 * the provider is billed by it, so the caller's deadline does not cut it (docs/routing.md).
 */
async function called(
  deps: RouterDeps,
  readings: OperationRuntime[],
  outgoing: OutgoingRequest,
  key: string,
  asked: number,
  ceiling: number,
): Promise<Answered> {
  const { runtime, state } = deps;
  const [op] = readings;
  const prov = runtime.providers[op.provider];
  const started = Date.now();
  // a failure after the provider was called: the answer names its cost, as every other answer of it does
  const uncharged = { 'x-svc-cost-micro': '0' };
  const answer = await send(outgoing, deps.attemptTimeoutMs, deps.maxAnswerBytes);
  if (answer.failure) {
    state.recordAttempt(op.endpoint_id, { outcome: 'error', ms: answer.ms, at: Date.now() });
    const why = { timeout: 'did not answer in time', network: 'could not be reached', too_large: `answered with more than ${deps.maxAnswerBytes} bytes` }[
      answer.failure
    ];
    fail(502, `${prov.display_name} ${why}; nothing was charged.`, uncharged);
  }
  // the routed child's rules: a miss status or body condition is a miss; another non-2xx status,
  // or a 2xx body that is not JSON, is an error and costs nothing
  const byStatus = classifyStatus(op, answer);
  /** the provider's answer that ended the call, which it is answered with */
  let final = answer;
  /** where its miss conditions and rows are read */
  let record = answer.body;
  /** false for a job that did not end with a result */
  let done = true;
  if (!byStatus && op.async) {
    // A submitted job: the submission says only that it was queued, and the provider bills by how
    // the job ends (a lookup that finds nothing is free). Polled to its end as a routed child's is,
    // so the call is charged by that end and answered with the provider's answer holding it.
    const polled = await pollJob(op, answer, {
      operations: runtime.operations,
      provider: prov,
      key,
      env: deps.env,
      deadline: started + DEFAULT_TIMEOUT_MS,
      intervalMaxMs: deps.pollIntervalMaxMs,
      maxAnswerBytes: deps.maxAnswerBytes,
    });
    if (polled.kind === 'error') {
      state.recordAttempt(op.endpoint_id, { outcome: 'error', ms: answer.ms, at: Date.now() });
      fail(502, `${prov.display_name} accepted the job but it did not finish (${polled.reason}); nothing was charged.`, uncharged);
    }
    final = polled.answer ?? answer;
    record = polled.kind === 'done' ? polled.record : undefined;
    done = polled.kind === 'done';
  }
  const read = (r: OperationRuntime) => {
    const outcome: Answered['outcome'] = classifyStatus(r, answer)?.outcome ?? (done && !missWhen(r.miss, record) ? 'hit' : 'miss');
    return { as: r, outcome, listed: chargeMicro(r, outcome, outcome === 'hit' ? rowsOf(runtime, r, record, asked) : 0) };
  };
  // one reading but where one request is described twice: the dearest its answer fulfils (the first where they cost alike)
  const { as, outcome, listed } = readings.map(read).reduce((a, b) => (b.listed > a.listed ? b : a));
  // the provider's own figure where its answer states one (the answer that ended the call), within the caller's ceiling
  const decided = outcome === 'error' ? null : decideCharge(as, listed, final, ceiling);
  state.recordAttempt(as.endpoint_id, {
    outcome,
    ms: answer.ms,
    at: Date.now(),
    charge: decided?.reported ? { list_micro: listed, reported_micro: decided.reported.micro } : undefined,
  });
  return { as: as.endpoint_id, outcome, final, first: answer, price: decided?.micro ?? listed, decided };
}

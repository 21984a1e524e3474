// One catalog operation called as the provider defines it: the declared method and path only, the
// declared parameters only where the entry is strict, the key injected server-side, charged like a
// one-child routed call, answered with the provider's own status and body (a key the provider
// refuses is a 502 that says whose key it was).
import type { H3Event } from 'h3';
import type { OperationRuntime, RuntimeCatalog } from '../../language/types.ts';
import type { AppContext } from '../context.ts';
import type { Team } from '../state/index.ts';
import { balanceTooLow, fail } from '../errors.ts';
import { isRefusal } from '../spending.ts';
import { readJson } from '../body.ts';
import { getPath } from '../../language/json-path.ts';
import { OutgoingRequest, providerUrl } from './build-request.ts';
import { isUnsafePath } from '../../language/paths.ts';
import { placeKey, platformKey } from '../../language/provider-auth.ts';
import { send } from './http.ts';
import { classifyStatus, KEY_TROUBLE } from './classify.ts';
import { redact } from './redact.ts';
import { chargeMicro } from '../../language/prices.ts';
import { checkBody, checkPath, checkQuery } from './pass-through-input.ts';
import { holdMicro, rowsAsked } from './pass-through-rows.ts';
import { catalogPath, matchOperation, templateOf } from './pass-through-match.ts';
import { pathParams } from '../../language/paths.ts';
import { countRows, mapOutput, missWhen } from '../../language/map-response.ts';
import { CALL_ID_HEADER, newCallId } from '../util/call-id.ts';
import { pollJob } from './poll.ts';
import { passThroughOptions, refuseOverCeiling } from './pass-through-options.ts';

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
function keyRefused(provider: string, display: string, own: boolean, answer: { status: number; body: unknown; text: string }, key: string, callId: string): Response {
  const whose = own
    ? `${display} refused your team's stored key for '${provider}' (HTTP ${answer.status}); nothing was charged. svc sets that key aside for a while: replace it with POST /teams/me/keys/${provider}.`
    : `${display} refused svc's platform key (HTTP ${answer.status}); nothing was charged. Your svc credential is fine: this is on svc's side.`;
  const body = answer.body === undefined ? answer.text : answer.body;
  return new Response(redact(JSON.stringify({ detail: whose, provider_status: answer.status, provider_body: body }), key), {
    status: 502,
    headers: { 'content-type': 'application/json', [CALL_ID_HEADER]: callId, 'x-svc-cost-micro': '0' },
  });
}

/** `callId`: as the router's (a hub run gives its own); a new one otherwise */
export async function passThrough(ctx: AppContext, team: Team, provider: string, event: H3Event, callId = newCallId()): Promise<Response> {
  const { catalog, config, state, router, spending } = ctx;
  const url = new URL(event.req.url);
  const path = catalogPath(catalog.runtime, provider, url.pathname.slice(`${config.proxyPrefix}/${provider}`.length) || '/');
  if (isUnsafePath(path)) fail(400, 'The path may not contain dot segments or encoded slashes.');
  const options = passThroughOptions(event.req.headers);
  // a body is read only where the method carries one (nothing sent is `undefined`), before matching:
  // operations sharing one path are told apart by what the call sends
  const method = event.req.method;
  const body = method !== 'GET' && method !== 'DELETE' && method !== 'HEAD' ? await readJson(event, config.maxBodyBytes) : undefined;
  const op = matchOperation(catalog.runtime, provider, method, path, url.searchParams, body);
  const prov = catalog.runtime.providers[provider];
  checkPath(op, pathParams(templateOf(op), path));
  checkQuery(op, url.searchParams);
  if (op.method !== 'GET' && op.method !== 'DELETE') checkBody(op, body);
  const asked = rowsAsked(op, url.searchParams, body);
  const own = !router.deps.health.ownKeyCooling(team.id, provider) ? await state.ownKey(team.id, provider) : null;
  const key = own ?? (op.platform_eligible ? platformKey(prov, config.env) : null);
  if (!key) fail(403, `svc holds no key for '${provider}' that may serve this operation; store your own with POST /teams/me/keys/${provider}.`);
  const pays = own === null;
  const worst = holdMicro(op, asked);
  refuseOverCeiling(options, op.endpoint_id, worst);
  // the routed dry run's answer for a plan of one: what the call would hold, nothing called or charged
  if (options.dryRun) return Response.json({ plan: [{ endpoint_id: op.endpoint_id, key: pays ? 'platform' : 'own', worst_cost_micro: worst }], excluded: [], worst_cost_micro: worst });
  const hold = pays ? await spending.reserve(team.id, worst) : null;
  if (hold && isRefusal(hold)) {
    if (hold.why === 'held') fail(402, 'Balance is held by calls in flight; retry when they finish.');
    balanceTooLow(worst, `Balance too low: ${op.endpoint_id} may cost ${worst} micro-USD${op.page_size ? ` for the ${asked} rows this call may return` : ''} and the balance is ${hold.balance_micro} micro-USD; nothing was called or charged.`);
  }
  try {
    const target = providerUrl(prov, config.env, path);
    if (!target) fail(400, 'That path leaves the provider\'s host.');
    const query = new URLSearchParams(url.searchParams);
    const headers: Record<string, string> = { accept: 'application/json' };
    placeKey(prov, key, query, headers);
    target.search = query.toString();
    if (body !== undefined) headers['content-type'] = 'application/json';
    const started = Date.now();
    // a failure after the provider was called: the answer names the call and its cost, as every other answer of it does
    const uncharged = { [CALL_ID_HEADER]: callId, 'x-svc-cost-micro': '0' };
    const answer = await send(OutgoingRequest.to(op.method, target, headers, body === undefined ? null : JSON.stringify(body), key), Math.min(router.deps.attemptTimeoutMs, options.timeoutMs), router.deps.maxAnswerBytes);
    if (answer.failure) {
      state.recordAttempt(op.endpoint_id, { outcome: 'error', ms: answer.ms, at: Date.now() });
      const why = { timeout: 'did not answer in time', network: 'could not be reached', too_large: `answered with more than ${router.deps.maxAnswerBytes} bytes` }[answer.failure];
      fail(502, `${prov.display_name} ${why}; nothing was charged.`, uncharged);
    }
    // the routed child's rules: a miss status or body condition is a miss; another non-2xx status,
    // or a 2xx body that is not JSON, is an error and costs nothing
    const byStatus = classifyStatus(op, answer);
    let outcome: 'hit' | 'miss' | 'error' = byStatus ? byStatus.outcome : missWhen(op.miss, answer.body) ? 'miss' : 'hit';
    /** what the call is answered with: the provider's answer that ended it */
    let final = answer;
    /** where its miss conditions and rows are read */
    let record = answer.body;
    if (!byStatus && op.async) {
      // A submitted job: the submission says only that it was queued, and the provider bills by how
      // the job ends (a lookup that finds nothing is free). Polled to its end as a routed child's is,
      // so the call is charged by that end and answered with the provider's answer holding it.
      const polled = await pollJob(op, answer, {
        operations: catalog.runtime.operations, provider: prov, key, env: config.env, deadline: started + options.timeoutMs,
        intervalMaxMs: router.deps.pollIntervalMaxMs, maxAnswerBytes: router.deps.maxAnswerBytes,
      });
      if (polled.kind === 'error') {
        state.recordAttempt(op.endpoint_id, { outcome: 'error', ms: answer.ms, at: Date.now() });
        fail(502, `${prov.display_name} accepted the job but it did not finish (${polled.reason}); nothing was charged.`, uncharged);
      }
      final = polled.answer ?? answer;
      record = polled.kind === 'done' ? polled.record : undefined;
      outcome = polled.kind === 'done' && !missWhen(op.miss, record) ? 'hit' : 'miss';
    }
    const hit = outcome === 'hit';
    const price = chargeMicro(op, outcome, hit ? rowsOf(catalog.runtime, op, record, asked) : 0);
    // More rows than were asked and held for, past what the balance covers: the hold charges what was
    // held, and the answer says so (spending.ts).
    const cost = hold ? await hold.charge(price, { endpoint_id: op.endpoint_id, call_id: callId }) : price;
    state.recordAttempt(op.endpoint_id, { outcome, ms: answer.ms, at: Date.now() });
    if (own && KEY_TROUBLE.has(answer.status)) router.deps.health.coolOwnKey(team.id, provider);
    if (outcome === 'error' && KEY_REFUSED.has(answer.status)) return keyRefused(provider, prov.display_name, own !== null, answer, key, callId);
    return new Response(redact(final.text, key), {
      status: final.status,
      // whose key served: with the team's own, the cost is the provider's bill to the team, not a charge to the balance
      headers: { 'content-type': final.body === undefined ? 'text/plain; charset=utf-8' : 'application/json', [CALL_ID_HEADER]: callId, 'x-svc-cost-micro': String(cost), 'x-svc-key': pays ? 'platform' : 'own' },
    });
  } finally {
    hold?.release();
  }
}

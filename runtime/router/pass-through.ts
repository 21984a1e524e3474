// One catalog operation called as the provider defines it: the declared method and path only, the
// declared parameters only where the entry is strict, the key injected server-side, charged like a
// one-child routed call, answered with the provider's own status and body.
import type { H3Event } from 'h3';
import type { OperationRuntime, RuntimeCatalog } from '../../build/types.ts';
import type { AppContext } from '../context.ts';
import type { Team } from '../state/index.ts';
import { fail, invalid } from '../errors.ts';
import { readJson } from '../body.ts';
import { getPath } from '../util/json-path.ts';
import { isUnsafePath, providerUrl } from './build-request.ts';
import { placeKey, platformKey } from './keys.ts';
import { send } from './http.ts';
import { classifyStatus, KEY_TROUBLE, missWhen } from './classify.ts';
import { redact } from './redact.ts';
import { chargeMicro } from './billing.ts';
import { countRows, mapOutput } from './map-response.ts';
import { perObject } from '../util/remember.ts';
import { CALL_ID_HEADER, newCallId } from '../util/call-id.ts';

type Template = { op: OperationRuntime; re: RegExp };

/** The path templates of every provider's operations, compiled once per catalog. */
const templatesByProvider = perObject((runtime: RuntimeCatalog) => {
  const byProvider = new Map<string, Template[]>();
  for (const op of Object.values(runtime.operations)) {
    const re = new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[a-zA-Z0-9_]+\\?\}/g, '[^/]+')}$`);
    const list = byProvider.get(op.provider);
    if (list) list.push({ op, re });
    else byProvider.set(op.provider, [{ op, re }]);
  }
  return byProvider;
});
const templatesOf = (runtime: RuntimeCatalog, provider: string): Template[] => templatesByProvider(runtime).get(provider) ?? [];

function match(runtime: RuntimeCatalog, provider: string, method: string, path: string): OperationRuntime {
  const templates = templatesOf(runtime, provider);
  const candidates = templates.filter((t) => t.re.test(path));
  if (!candidates.length) {
    const some = templates.slice(0, 6).map((t) => `${t.op.method} ${t.op.path}`).join(', ');
    fail(404, `No operation of '${provider}' at ${path}; it has ${templates.length}: ${some}${templates.length > 6 ? ', …' : ''}.`);
  }
  const op = candidates.find((t) => t.op.method === method)?.op;
  if (!op) fail(405, `${path} of '${provider}' takes ${candidates.map((t) => t.op.method).join(' or ')}, not ${method}.`);
  return op;
}

/** 422 naming every parameter the operation does not declare. */
function refuseUndeclared(where: 'query' | 'body', sent: Iterable<string>, declared: object | undefined, op: OperationRuntime): void {
  const allowed = new Set(Object.keys(declared ?? {}));
  const extra = [...sent].filter((k) => !allowed.has(k));
  if (extra.length) invalid(extra.map((k) => ({ loc: [where, k], msg: `'${k}' is not a parameter of ${op.endpoint_id}.`, type: 'value_error.extra' })));
}

/** 422 naming every required parameter the call left out: the provider would refuse it, and may bill it. */
function refuseMissing(where: 'query' | 'body', sent: Set<string>, declared: Record<string, { required?: boolean }> | undefined, op: OperationRuntime): void {
  const missing = Object.entries(declared ?? {}).filter(([k, p]) => p.required && !sent.has(k)).map(([k]) => k);
  if (missing.length) invalid(missing.map((k) => ({ loc: [where, k], msg: `'${k}' is required by ${op.endpoint_id}.`, type: 'value_error.missing' })));
}

/** Rows a per-result answer bills: counted as the routed call would for a routed child. */
function rowsOf(runtime: RuntimeCatalog, op: OperationRuntime, body: unknown): number {
  const cap = op.serves ? runtime.capabilities[op.serves] : undefined;
  if (cap && op.response) return countRows(cap, op.response, body, mapOutput(cap, op.response, body));
  const list = op.response?.rows ? getPath(body, op.response.rows) : undefined;
  return Array.isArray(list) ? list.length : 1;
}

export async function passThrough(ctx: AppContext, team: Team, provider: string, event: H3Event): Promise<Response> {
  const { catalog, config, state, router } = ctx;
  const url = new URL(event.req.url);
  const path = url.pathname.slice(`${config.proxyPrefix}/${provider}`.length) || '/';
  if (isUnsafePath(path)) fail(400, 'The path may not contain dot segments or encoded slashes.');
  const op = match(catalog.runtime, provider, event.req.method, path);
  const prov = catalog.runtime.providers[provider];
  if (op.strict_query) refuseUndeclared('query', url.searchParams.keys(), op.input.queryParams, op);
  refuseMissing('query', new Set(url.searchParams.keys()), op.input.queryParams, op);
  let body: unknown = null;
  if (op.method !== 'GET' && op.method !== 'DELETE') {
    body = await readJson(event, config.maxBodyBytes);
    const fields = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : null;
    if (fields && (op.strict_body || op.body_allowlist)) refuseUndeclared('body', fields, op.input.body, op);
    if (fields || body === undefined) refuseMissing('body', new Set(fields), op.input.body, op);
  }
  const own = !router.deps.health.ownKeyCooling(team.id, provider) ? await state.ownKey(team.id, provider) : null;
  const key = own ?? (op.platform_eligible ? platformKey(prov, config.env) : null);
  if (!key) fail(403, `svc holds no key for '${provider}' that may serve this operation; store your own with POST /teams/me/keys/${provider}.`);
  const pays = own === null;
  const worst = op.price_micro;
  if (pays && (await state.balance(team.id)) < worst) fail(402, `Balance too low: ${op.endpoint_id} costs ${worst} micro-USD per call.`);
  if (pays && !(await router.deps.reservations.reserve(state, team.id, worst))) fail(402, 'Balance is held by calls in flight; retry when they finish.');
  try {
    const target = providerUrl(prov, config.env, path);
    if (!target) fail(400, 'That path leaves the provider\'s host.');
    const query = new URLSearchParams(url.searchParams);
    const headers: Record<string, string> = { accept: 'application/json' };
    placeKey(prov, key, query, headers);
    target.search = query.toString();
    if (body !== null) headers['content-type'] = 'application/json';
    const answer = await send({ method: op.method, url: target, headers, body: body === null ? null : JSON.stringify(body) }, router.deps.attemptTimeoutMs, router.deps.maxAnswerBytes);
    if (answer.failure) {
      state.recordAttempt(op.endpoint_id, { outcome: 'error', ms: answer.ms, at: Date.now() });
      const why = { timeout: 'did not answer in time', network: 'could not be reached', too_large: `answered with more than ${router.deps.maxAnswerBytes} bytes` }[answer.failure];
      fail(502, `${prov.display_name} ${why}; nothing was charged.`);
    }
    // the routed child's rules: a miss status or body condition is a miss; another non-2xx status,
    // or a 2xx body that is not JSON, is an error and costs nothing
    const byStatus = classifyStatus(op, answer);
    const outcome = byStatus ? byStatus.outcome : missWhen(op.miss, answer.body) ? 'miss' : 'hit';
    const hit = outcome === 'hit';
    let cost = chargeMicro(op, outcome, hit ? rowsOf(catalog.runtime, op, answer.body) : 0);
    const callId = newCallId();
    // More rows than the balance covers (the caller sets a pass-through's page size): the call is
    // charged what was reserved for it, and says so, rather than a charge the ledger never took.
    if (cost > 0 && pays && !(await state.charge(team.id, cost, { endpoint_id: op.endpoint_id, call_id: callId }))) {
      cost = Math.min(cost, worst);
      await state.charge(team.id, cost, { endpoint_id: op.endpoint_id, call_id: callId });
    }
    state.recordAttempt(op.endpoint_id, { outcome, ms: answer.ms, at: Date.now() });
    if (own && KEY_TROUBLE.has(answer.status)) router.deps.health.coolOwnKey(team.id, provider);
    return new Response(redact(answer.text, key), {
      status: answer.status,
      headers: { 'content-type': answer.body === undefined ? 'text/plain; charset=utf-8' : 'application/json', [CALL_ID_HEADER]: callId, 'x-svc-cost-micro': String(cost) },
    });
  } finally {
    if (pays) router.deps.reservations.release(team.id, worst);
  }
}

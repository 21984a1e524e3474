// The provider sandbox: one handler that answers as every provider of a built catalog does, from
// runtime.json alone. Route (a token endpoint answered first) -> key check -> steering and faults -> async poll, hit or miss -> billing.
import type { AsyncSrc, CapabilitySrc } from '../language/types.ts';
import { answerData, subjectHash, type Answered } from './answer.ts';
import { rowsSent } from './rows-sent.ts';
import { pollJob, pollParam, recordMiss, resultBase, submitJob } from './async.ts';
import { authQueryNames, authorized, unauthorizedAnswer } from './auth.ts';
import { BillingBook } from './billing.ts';
import { faultDice } from './faults.ts';
import { JobStore } from './jobs.ts';
import { withReported } from './reported.ts';
import { TokenDesk, type TokenCounts } from './tokens.ts';
import { parseBody, type ParsedRequest } from './request-read.ts';
import { RouteTable } from './routes.ts';
import { readSteer, steeringText } from './steer.ts';
import { readSubject } from './subject.ts';
import type { BillingCounts, Charge, SandboxAnswer, SandboxCatalog, SandboxOperation, SandboxOptions, SandboxRequest } from './types.ts';

export const DEFAULT_STALL_MS = 120_000;
const GARBAGE = '{"data": [{"id": 1, "name": "trunc';

export interface Sandbox {
  /** answer one provider call (`service` is the first path segment, `req.path` the rest) */
  handle(service: string, req: SandboxRequest): Promise<SandboxAnswer>;
  /** count a charge; the listeners call it once the answer is written */
  record(charge: Charge): void;
  billing(): BillingCounts;
  /** token exchanges answered and refused, per provider that exchanges (auth.exchange) */
  tokens(): TokenCounts;
  /** clear billing and token counts and jobs (issued tokens stay live) */
  reset(): void;
  services(): string[];
}

const json = (status: number, body: unknown): SandboxAnswer => ({ kind: 'json', status, body });

export function createSandboxCore(runtime: SandboxCatalog, opts: SandboxOptions): Sandbox {
  const routes = new RouteTable(runtime);
  const book = new BillingBook();
  const jobs = new JobStore();
  const desk = new TokenDesk(opts.tokenLifeS);
  const dice = faultDice(opts.faultRate ?? 0, opts.seed ?? 1);
  const stallMs = opts.stallMs ?? DEFAULT_STALL_MS;
  const capOf = new Map<string, CapabilitySrc>();
  for (const cap of Object.values(runtime.capabilities)) for (const id of cap.children) capOf.set(id, cap);
  const pollers = new Map<string, AsyncSrc>();
  for (const op of Object.values(runtime.operations)) if (op.async) pollers.set(op.async.poll.endpoint, op.async);

  async function handle(service: string, req: SandboxRequest): Promise<SandboxAnswer> {
    const provider = runtime.providers[service];
    if (provider && desk.isExchange(provider, req)) {
      const issued = desk.exchange(provider, opts.keys[service] ?? '', req);
      return json(issued.status, issued.body);
    }
    const cands = provider ? routes.candidates(service, req.method, req.path) : [];
    if (!provider || !cands.length) return json(404, { error: 'not found', path: `/${service}${req.path}` });
    const u = unauthorizedAnswer(provider);
    if (!authorized(provider, opts.keys[service], req.headers, req.query, (token) => desk.valid(service, token))) return json(u.status, u.body);

    const ignore = authQueryNames(provider);
    const query = new URLSearchParams([...req.query].filter(([k]) => !ignore.has(k)));
    const steer = dice(readSteer(steeringText(req.path, query, req.bodyText), service));
    if (steer.fault === 'reset') return { kind: 'reset' };
    if (steer.fault === 'slow') return { kind: 'stall', ms: stallMs };
    const delayMs = steer.latencyMs || undefined;
    if (steer.fault === 'fail') return { kind: 'json', status: 500, body: { error: 'internal server error' }, delayMs };
    if (steer.fault === 'garbage') return { kind: 'text', status: 200, text: GARBAGE, contentType: 'application/json', delayMs };

    const body = parseBody(req.bodyText);
    const base = { query, headers: req.headers, body };
    for (const c of cands) {
      const a = pollers.get(c.op.endpoint_id);
      const id = a && pollParam(a, query, c.params, body);
      const job = id ? jobs.get(id) : undefined;
      if (job) return withCharge(pollJob(job), delayMs);
    }
    const match = routes.best(cands, base, ignore)!;
    const op: SandboxOperation = match.op;
    const parsed: ParsedRequest = { ...base, params: match.params };
    const cap = capOf.get(op.endpoint_id) ?? null;
    const read = readSubject(op, cap, parsed, ignore);
    const example = Object.hasOwn(runtime.examples, op.endpoint_id) ? runtime.examples[op.endpoint_id] : null;
    // a queued job is answered as one, whether or not the operation serves a routed capability: svc
    // polls every operation with an async block, and the provider bills the job when it ends
    if (op.async) {
      const asRecord = { ...op, miss: recordMiss(op.async, op.miss) };
      const final = answerData({ op: asRecord, cap, miss: steer.miss, read, base: resultBase(op.async, example), sent: null });
      return withCharge(
        submitJob(jobs, op.async, example, final, subjectHash(op, read), (done) => withReported(op, done, steer.chargeUnits)),
        delayMs,
      );
    }
    return withCharge(withReported(op, answerData({ op, cap, miss: steer.miss, read, base: example, sent: rowsSent(op, parsed) }), steer.chargeUnits), delayMs);
  }

  function withCharge(a: Answered, delayMs?: number): SandboxAnswer {
    return { kind: 'json', status: a.status, body: a.body, delayMs, ...(a.charge ? { charge: a.charge } : {}), ...(a.headers ? { headers: a.headers } : {}) };
  }

  return {
    handle,
    billing: () => book.snapshot(),
    tokens: () => desk.snapshot(),
    reset: () => {
      book.clear();
      jobs.clear();
      desk.clearCounts();
    },
    record: (c) => book.add(c),
    services: () => Object.keys(runtime.providers),
  };
}

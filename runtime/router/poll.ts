// Submit-then-poll children: read the job id from the submit answer, poll the declared operation at
// the declared interval until a success or failure status, within the call's deadline.
import type { AsyncSrc, OperationRuntime, ProviderRuntime, RequestSrc } from '../../language/types.ts';
import { getPath } from '../../language/json-path.ts';
import { buildChildRequest } from './build-request.ts';
import { send, type ChildAnswer } from './http.ts';
import { classifyStatus } from './classify.ts';
import { tokens, TokenRefused } from './token-exchange.ts';
import type { Env } from '../../language/provider-auth.ts';

/** `answer`: the poll answer that ended the job (none when the submission itself did), for a pass-through to answer as it came */
export type PollOutcome =
  | { kind: 'done'; record: unknown; body: unknown; answer?: ChildAnswer }
  | { kind: 'failed'; answer?: ChildAnswer }
  | { kind: 'error'; reason: string; status?: number };

const WHERE = { queryParams: 'query', pathParams: 'path', body: 'body' } as const;

/** The poll operation's request: the job id, where the async block says it goes. */
export const pollRequest = (a: AsyncSrc): RequestSrc => ({ map: [{ from: 'job', to: `${WHERE[a.poll.param.in]}.${a.poll.param.name}` }] });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const statusIn = (v: unknown, list: string[] | undefined) => v !== undefined && v !== null && (list ?? []).includes(String(v));

/** `deps.key`: the key as stored (a client id and secret where the provider exchanges it for tokens) */
export async function pollJob(
  op: OperationRuntime,
  submit: ChildAnswer,
  deps: {
    operations: Record<string, OperationRuntime>;
    provider: ProviderRuntime;
    key: string;
    env: Env;
    deadline: number;
    intervalMaxMs: number | null;
    maxAnswerBytes: number;
  },
): Promise<PollOutcome> {
  const a = op.async!;
  const started = Date.now();
  const resultOf = (body: unknown) => getPath(body, a.result.path) ?? body;
  const first = getPath(submit.body, a.status.path);
  if (a.terminal_on_submission && statusIn(first, a.status.success)) return { kind: 'done', record: resultOf(submit.body), body: submit.body };
  if (statusIn(first, a.status.failure)) return { kind: 'failed' };
  const jobId = getPath(submit.body, a.id_from);
  if (jobId === undefined || jobId === null || jobId === '') return { kind: 'error', reason: 'no job id in the submit answer' };
  const pollOp = deps.operations[a.poll.endpoint];
  const request = pollRequest(a);
  const interval = Math.min(a.interval * 1000, deps.intervalMaxMs ?? Infinity);
  for (;;) {
    const wait = Math.min(interval, deps.deadline - Date.now());
    if (wait <= 0) return { kind: 'error', reason: 'deadline passed while polling' };
    await sleep(wait);
    // a job may outlive a token: each poll places the token the cache holds now (token-exchange.ts)
    let placed: string;
    try {
      placed = await tokens.credential(deps.provider, deps.key, deps.env, deps.deadline - Date.now(), deps.maxAnswerBytes);
    } catch (e) {
      if (e instanceof TokenRefused) return { kind: 'error', reason: `poll: ${e.message}`, status: e.status };
      throw e;
    }
    const answer = await send(
      buildChildRequest(pollOp, deps.provider, request, { job: jobId }, placed, deps.env),
      deps.deadline - Date.now(),
      deps.maxAnswerBytes,
    );
    const byStatus = classifyStatus(op, answer);
    if (byStatus?.outcome === 'miss') return { kind: 'failed', answer };
    if (byStatus) return { kind: 'error', reason: `poll: ${byStatus.reason}`, status: answer.status || undefined };
    const status = getPath(answer.body, a.status.path);
    if (statusIn(status, a.status.success)) return { kind: 'done', record: resultOf(answer.body), body: answer.body, answer };
    if (statusIn(status, a.status.failure)) return { kind: 'failed', answer };
    if (a.max_age && Date.now() - started > a.max_age * 1000) return { kind: 'error', reason: 'job outlived max_age' };
  }
}

// Submit-then-poll children: the submission answers a job id and a `progress` status; the first poll
// answers `progress` again, later polls the final record at `result.path`, billed once.
import type { AsyncSrc, MissSrc } from '../language/types.ts';
import { getPath, setPath } from '../language/json-path.ts';
import { setAt } from './paths.ts';
import type { Answered } from './answer.ts';
import type { Job, JobStore } from './jobs.ts';

const objectOf = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (structuredClone(v) as Record<string, unknown>) : {});

/** The example record an async child's answer is built from. */
export function resultBase(a: AsyncSrc, example: unknown): unknown {
  return a.result.path ? getPath(example, a.result.path) : example;
}

/** An async child's miss body is often a whole poll answer: cut it to the record, as the example is. */
export function recordMiss(a: AsyncSrc, miss: MissSrc | null): MissSrc | null {
  if (!miss?.body || !a.result.path) return miss;
  const record = getPath(miss.body, a.result.path);
  return record === undefined ? miss : { ...miss, body: record };
}

/** Place the final record (hit or miss) into the poll answer's shape. */
function finalBody(a: AsyncSrc, example: unknown, record: unknown, id: string): unknown {
  const body = objectOf(a.result.path ? setAt(objectOf(example), a.result.path, record) : record);
  setPath(body, a.id_from, id);
  setPath(body, a.status.path, a.status.success[0]);
  return body;
}

/** The submission answer: the example with the job id and a `progress` status, or a minimal object
 * holding them when the example's shape cannot (the example is often the final poll answer). */
function submitBody(a: AsyncSrc, example: unknown, id: string): unknown {
  const write = (body: Record<string, unknown>): unknown => {
    setPath(body, a.id_from, id);
    setPath(body, a.status.path, a.status.progress[0]);
    return JSON.parse(JSON.stringify(body));
  };
  const fromExample = write(objectOf(Array.isArray(example) ? resultBase(a, example) : example));
  if (getPath(fromExample, a.id_from) === id) return fromExample;
  return write({});
}

/** `report`: what the final poll answer states of its charge (reported.ts), written once it has its whole shape */
export function submitJob(jobs: JobStore, a: AsyncSrc, example: unknown, final: Answered, hash: number, report: (done: Answered) => Answered): Answered {
  const placed = final.status === 200;
  const job = jobs.create({ async: a, status: final.status, body: final.body, charge: final.charge }, hash);
  if (placed)
    ({
      body: job.body,
      charge: job.charge,
      headers: job.headers,
    } = report({ status: 200, body: finalBody(a, example, final.body, job.id), charge: job.charge }));
  return { status: 200, body: submitBody(a, example, job.id), charge: null };
}

export function pollJob(job: Job): Answered {
  job.polls += 1;
  if (job.polls === 1) {
    const body = objectOf(job.status === 200 ? job.body : {});
    setPath(body, job.async.status.path, job.async.status.progress[0]);
    return { status: 200, body, charge: null };
  }
  const charge = job.billed ? null : job.charge;
  job.billed = true;
  return { status: job.status, body: structuredClone(job.body), charge, headers: job.headers };
}

/** The job id a poll request carries, read where the async block says. */
export function pollParam(a: AsyncSrc, query: URLSearchParams, params: Record<string, string>, body: unknown): string | undefined {
  const { in: where, name } = a.poll.param;
  const v = where === 'queryParams' ? query.get(name) : where === 'pathParams' ? params[name] : getPath(body, name);
  return v === null || v === undefined ? undefined : String(v);
}

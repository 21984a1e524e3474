// Async children: a submitted job answers `progress` on its first poll and its final answer after.
import type { AsyncSrc } from '../language/types.ts';
import type { Charge } from './types.ts';

export interface Job {
  id: string;
  async: AsyncSrc;
  /** the final poll answer, decided at submission */
  status: number;
  body: unknown;
  charge: Charge | null;
  /** the final poll answer's headers (a charge stated in a header) */
  headers?: Record<string, string>;
  polls: number;
  billed: boolean;
}

export class JobStore {
  private jobs = new Map<string, Job>();
  private next = 1;

  create(fields: Omit<Job, 'id' | 'polls' | 'billed'>, hash: number): Job {
    const id = `job-${(this.next++).toString(36)}-${hash.toString(36)}`;
    const job: Job = { ...fields, id, polls: 0, billed: false };
    this.jobs.set(id, job);
    return job;
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  clear(): void {
    this.jobs.clear();
  }
}

// What only a process shows: a command run to its end in a process of its own (its exit status; no
// time limit of its own, the test's timeout aborts `signal`, which kills it), a live process's
// resident memory and its children.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** what a child spawned with piped stdout and stderr has written so far, gathered as it comes */
export function collected(child: ChildProcess): () => { stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return () => ({ stdout, stderr });
}

export function ranToExit(command: string, args: string[], options: SpawnOptions & { signal?: AbortSignal }): Promise<Ran> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], killSignal: 'SIGKILL' });
  const output = collected(child);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, ...output() }));
  });
}

/** a live process's resident memory in MB (Linux: /proc) */
export function residentMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(kb![1]) / 1024;
}

/** the pids of a process's live children (Linux: /proc); none once it is gone */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** the command names of a process's live children (Linux: /proc) */
export function childrenOf(pid: number): string[] {
  return childPids(pid).flatMap((child) => {
    try {
      return [readFileSync(`/proc/${child}/comm`, 'utf8').trim()];
    } catch {
      return []; // ended meanwhile
    }
  });
}

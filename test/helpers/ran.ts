// A command run to its end in a process of its own, for what only a process shows (its exit status):
// no time limit of its own; the test's timeout aborts `signal`, which kills it.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

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

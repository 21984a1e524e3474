// A command run to its end in a process of its own, for what only a process shows (its exit status):
// no time limit of its own; the test's timeout aborts `signal`, which kills it.
import { spawn, type SpawnOptions } from 'node:child_process';

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function ranToExit(command: string, args: string[], options: SpawnOptions & { signal?: AbortSignal }): Promise<Ran> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], killSignal: 'SIGKILL' });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

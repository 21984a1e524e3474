// The `svc` command as a user runs it: `node bin/svc.js …` as a child process, with only the
// environment given (plus PATH), so nothing leaks in from the test runner's own environment.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './paths.ts';

const run = promisify(execFile);
export const SVC_BIN = join(ROOT, 'bin', 'svc.js');

export interface CliResult { code: number; stdout: string; stderr: string }

export async function svcCli(args: string[], env: Record<string, string>, cwd = ROOT): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SVC_BIN, ...args], { env: { PATH: process.env.PATH, ...env }, cwd });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** A long-running `svc …` (serve, demo, a streaming find): its output collected as it comes. */
export function svcChild(args: string[], env: Record<string, string>): { child: ChildProcess; output: () => { stdout: string; stderr: string }; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [SVC_BIN, ...args], { env: { PATH: process.env.PATH, ...env }, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => ({ stdout, stderr }), exited };
}

/** waits until `seen` holds for the child's output, or fails after a generous bound */
export async function until(seen: () => boolean, what: string, boundMs = 60_000): Promise<void> {
  const t0 = Date.now();
  while (!seen()) {
    if (Date.now() - t0 > boundMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

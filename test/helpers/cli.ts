// The `svc` command and the build's command run in this process, as their entries run them: the
// arguments given, only the SVC_ variables given, stdout, stderr and console captured, and the exit
// code read from process.exitCode (or the process.exit a library calls after printing help).
// test/cli/local.test.ts and test/build/cli.test.ts each spawn the real entry once.
import { spawn, type ChildProcess } from 'node:child_process';
import { format } from 'node:util';
import { runCommand } from 'citty';
import { runSvc } from '../../cli/run.ts';
import { buildCommand } from '../../build/cli.ts';
import { ROOT } from './paths.ts';
import { collected } from './ran.ts';

export const SVC_BIN = `${ROOT}/bin/svc.js`;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

type Write = typeof process.stdout.write;

/** where a command runs: its cwd, and whether stdout and stderr are a terminal (a pipe by default) */
export interface CliPlace {
  cwd?: string;
  tty?: boolean;
}

/** what a command has printed so far, read while it runs */
export interface CliOutput {
  stdout: string;
  stderr: string;
}

/** `run` with the process's output (into `out`, as it comes), exit code, SVC_ environment and cwd its own; restored after */
async function captured(
  run: () => Promise<unknown>,
  env: Record<string, string>,
  { cwd = ROOT, tty = false }: CliPlace,
  out: CliOutput = { stdout: '', stderr: '' },
): Promise<CliResult> {
  let exited: number | undefined;
  const into = (add: (s: string) => void): Write =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      add(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    }) as Write;
  const saved = {
    out: process.stdout.write,
    err: process.stderr.write,
    console: { ...console },
    exit: process.exit,
    cwd: process.cwd(),
    env: { ...process.env },
    tty: [process.stdout.isTTY, process.stderr.isTTY],
  };
  process.stdout.isTTY = process.stderr.isTTY = tty;
  process.stdout.write = into((s) => {
    out.stdout += s;
  });
  process.stderr.write = into((s) => {
    out.stderr += s;
  });
  console.log = console.info = (...a: unknown[]) => {
    out.stdout += `${format(...a)}\n`;
  };
  console.error = console.warn = (...a: unknown[]) => {
    out.stderr += `${format(...a)}\n`;
  };
  process.exit = ((code?: number) => {
    exited ??= Number(code ?? 0);
  }) as typeof process.exit;
  for (const k of Object.keys(process.env)) if (k.startsWith('SVC_')) delete process.env[k];
  Object.assign(process.env, env);
  process.exitCode = undefined;
  process.chdir(cwd);
  try {
    await run();
    return { code: exited ?? Number(process.exitCode ?? 0), ...out };
  } finally {
    process.exitCode = undefined;
    process.chdir(saved.cwd);
    for (const k of Object.keys(process.env)) if (!(k in saved.env)) delete process.env[k];
    Object.assign(process.env, saved.env);
    Object.assign(console, saved.console);
    process.exit = saved.exit;
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    [process.stdout.isTTY, process.stderr.isTTY] = saved.tty;
  }
}

/** `svc <args>` with the SVC_ environment `env` */
export const svcCli = (args: string[], env: Record<string, string>, place: CliPlace = {}): Promise<CliResult> => captured(() => runSvc(args), env, place);

/** `svc <args>` still running: what it printed so far, and its result when it ends (nothing else may print meanwhile) */
export function svcCliRunning(args: string[], env: Record<string, string>): { output: () => CliOutput; done: Promise<CliResult> } {
  const out = { stdout: '', stderr: '' };
  return { output: () => ({ ...out }), done: captured(() => runSvc(args), env, {}, out) };
}

/** `npm run build -- <args>` without the server's compile (bin/build.js adds it; test/build/cli.test.ts spawns that once) */
export const buildCli = (args: string[]): Promise<CliResult> => captured(() => runCommand(buildCommand(), { rawArgs: args }), {}, {});

/** A long-running `svc …` (serve, demo) in a process of its own, for what only a process shows (signals): its output collected as it comes. */
export function svcChild(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; output: () => { stdout: string; stderr: string }; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [SVC_BIN, ...args], { env: { PATH: process.env.PATH, ...env }, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: collected(child), exited };
}

/** waits until `seen` holds for a command's output, or fails after a generous bound */
export async function until(seen: () => boolean, what: string, boundMs = 60_000): Promise<void> {
  const t0 = Date.now();
  while (!seen()) {
    if (Date.now() - t0 > boundMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

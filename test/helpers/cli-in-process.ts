// `svc …` run inside the test's own process (cli/run.ts): its stdout, stderr and exit code, with the
// environment given (and PATH) in place of the runner's for the length of the command.
import '../../build/plain-output.ts';
import { runSvc } from '../../cli/run.ts';
import type { CliResult } from './cli.ts';

export async function svcIn(args: string[], env: Record<string, string>): Promise<CliResult> {
  const savedEnv = { ...process.env };
  const write = { out: process.stdout.write, err: process.stderr.write };
  let stdout = '';
  let stderr = '';
  for (const k of Object.keys(process.env)) if (k !== 'PATH' && k !== 'NO_COLOR') delete process.env[k];
  Object.assign(process.env, env);
  process.stdout.write = ((chunk: string | Uint8Array) => { stdout += String(chunk); return true; }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => { stderr += String(chunk); return true; }) as typeof process.stderr.write;
  process.exitCode = undefined;
  try {
    await runSvc(args);
    return { code: Number(process.exitCode ?? 0), stdout, stderr };
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
    process.exitCode = undefined;
    for (const k of Object.keys(process.env)) delete process.env[k];
    Object.assign(process.env, savedEnv);
  }
}

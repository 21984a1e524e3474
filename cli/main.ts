// `svc`: the command line. Each command group is its own file; this one only lists them and turns
// failures into one sentence and an exit code a script can read (fail.ts, docs/cli.md).
import '../build/plain-output.ts'; // first: before citty reads the environment
import { defineCommand, renderUsage, runCommand, runMain, type ArgsDef, type CommandDef } from 'citty';
import pkg from '../package.json' with { type: 'json' };
import { admin } from './admin.ts';
import { call } from './call.ts';
import { find, search, show } from './catalog.ts';
import { catalog } from './drift.ts';
import { feedback, review } from './feedback.ts';
import { hub } from './hub.ts';
import { build, demo, serve } from './local.ts';
import { me } from './me.ts';
import { team } from './team.ts';
import { mcp } from './mcp.ts';
import { batch } from './batch.ts';
import { CliFailure, EXIT, EXIT_HELP } from './fail.ts';
import { refuseUnknownFlags } from './flags.ts';

export const main = defineCommand({
  meta: { name: 'svc', version: pkg.version, description: 'Capability catalog and routed call service. Reads SVC_URL (default http://localhost:8787) and SVC_TOKEN' },
  subCommands: { search, show, find, catalog, call, hub, me, team, feedback, review, serve, demo, build, admin, mcp, batch },
});

// A reader that stops early (`svc search email | head -1`, or `2>&1 | head -1`) closes the pipe;
// that ends the command quietly, with the exit code of what it did, instead of in a stack trace.
const closedPipe = (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') process.stderr.write(`svc: cannot write the output (${e.code ?? e.message}).\n`);
  process.exit(e.code === 'EPIPE' ? Number(process.exitCode ?? 0) : EXIT.unexpected);
};

/** the `svc` process's own streams: a closed pipe ends it quietly (bin/svc.js, never a host that embeds runSvc) */
export function endQuietlyOnClosedPipe(): void {
  process.stdout.on('error', closedPipe);
  process.stderr.on('error', closedPipe);
}

/** `svc <rawArgs>`: output on stdout and stderr, the outcome in process.exitCode */
export async function runSvc(rawArgs: string[]): Promise<void> {
  try {
    // The parser would read `-1` as a flag and then report a missing amount; no svc command takes one.
    const negative = rawArgs.find((a) => /^-\d/.test(a));
    if (negative) throw new CliFailure(`'${negative}' is a negative amount, which no svc command takes (credits are USD amounts such as 10 or 0.25).`, EXIT.usage);
    if (rawArgs.length === 0 || rawArgs.includes('--help') || rawArgs.includes('-h') || rawArgs[0] === '--version') {
      // the top-level usage ends with the exit codes, so scripts' authors find them where they look
      const showUsage = async <T extends ArgsDef = ArgsDef>(cmd: CommandDef<T>, parent?: CommandDef<T>) => {
        process.stdout.write(`${await renderUsage(cmd, parent)}\n\n${(cmd as unknown) === main ? `${EXIT_HELP}\n` : ''}`);
      };
      await runMain(main, { rawArgs: rawArgs.length ? rawArgs : ['--help'], showUsage });
    } else {
      refuseUnknownFlags(main, rawArgs);
      await runCommand(main, { rawArgs });
    }
  } catch (error) {
    const e = error as Error & { code?: string };
    const asJson = rawArgs.includes('--json');
    if (error instanceof CliFailure) {
      if (asJson && error.body !== undefined && error.body !== null) process.stdout.write(`${JSON.stringify(error.body)}\n`);
      process.stderr.write(`svc: ${e.message}\n`);
    } else if (e.code === 'EARG' || e.code?.startsWith('E_')) process.stderr.write(`svc: ${e.message} (add --help to see the usage)\n`);
    else process.stderr.write(`svc: unexpected failure: ${e.message}\n`);
    process.exitCode = error instanceof CliFailure ? error.exitCode : e.code === 'EARG' || e.code?.startsWith('E_') ? EXIT.usage : EXIT.unexpected;
  }
}

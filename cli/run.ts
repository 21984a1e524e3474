// One `svc` command line, run: the command it names loaded (commands.ts), its failures turned into one
// sentence on stderr and an exit code a script can read (fail.ts, docs/cli.md), set on process.exitCode.
// main.ts runs it for the process; tests run it in theirs.
import { defineCommand, renderUsage, runCommand } from 'citty';
import pkg from '../package.json' with { type: 'json' };
import { commandsFor } from './commands.ts';
import { asCommands } from './hints.ts';
import { CliFailure, EXIT, EXIT_HELP } from './fail.ts';
import { leaf, refuseUnknownFlags } from './flags.ts';
import { note, printJson } from './terminal.ts';

export async function runSvc(rawArgs: string[]): Promise<void> {
  try {
    const main = defineCommand({
      meta: {
        name: 'svc',
        version: pkg.version,
        description: 'Capability catalog and routed call service. Reads SVC_URL (default http://localhost:8787) and SVC_TOKEN',
      },
      subCommands: await commandsFor(rawArgs.find((a) => !a.startsWith('-'))),
    });
    // The parser would read `-1` as a flag and then report a missing amount; no svc command takes one.
    const negative = rawArgs.find((a) => /^-\d/.test(a));
    if (negative)
      throw new CliFailure(`'${negative}' is a negative amount, which no svc command takes (credits are USD amounts such as 10 or 0.25).`, EXIT.usage);
    if (rawArgs.length === 1 && rawArgs[0] === '--version') process.stdout.write(`${pkg.version}\n`);
    else if (rawArgs.length === 0 || rawArgs.includes('--help') || rawArgs.includes('-h')) {
      const { cmd, parent } = leaf(main, rawArgs);
      // citty pads its columns to the terminal's width; a line ends at its last word
      const usage = (await renderUsage(cmd, parent)).replace(/[ \t]+$/gm, '');
      // the top-level usage ends with the exit codes, so scripts' authors find them where they look
      process.stdout.write(`${usage}\n\n${cmd === main ? `${EXIT_HELP}\n` : ''}`);
    } else {
      refuseUnknownFlags(main, rawArgs);
      await runCommand(main, { rawArgs });
    }
  } catch (error) {
    const e = error as Error & { code?: string };
    const asJson = rawArgs.includes('--json');
    if (error instanceof CliFailure) {
      if (asJson && error.body !== undefined && error.body !== null) printJson(error.body);
      note(`svc: ${asCommands(e.message)}`);
    } else if (e.code === 'EARG' || e.code?.startsWith('E_')) note(`svc: ${e.message} (add --help to see the usage)`);
    else note(`svc: unexpected failure: ${e.message}`);
    process.exitCode = error instanceof CliFailure ? error.exitCode : e.code === 'EARG' || e.code?.startsWith('E_') ? EXIT.usage : EXIT.unexpected;
  }
}

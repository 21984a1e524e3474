// `svc`: the command line. Each command group is its own file; this one only lists them and turns
// failures into one sentence and a non-zero exit.
import '../util/plain-output.ts'; // first: before citty reads the environment
import { defineCommand, runCommand, runMain } from 'citty';
import pkg from '../../package.json' with { type: 'json' };
import { admin } from './admin.ts';
import { mcp } from './mcp.ts';
import { batch } from './batch.ts';
import { CliFailure } from './fail.ts';

const main = defineCommand({
  meta: { name: 'svc', version: pkg.version, description: 'Capability catalog and routed call service' },
  subCommands: { admin, mcp, batch },
});

const rawArgs = process.argv.slice(2);
try {
  // The parser would read `-1` as a flag and then report a missing amount; no svc command takes one.
  const negative = rawArgs.find((a) => /^-\d/.test(a));
  if (negative) throw new CliFailure(`'${negative}' is a negative amount, which no svc command takes (credits are USD amounts such as 10 or 0.25).`);
  if (rawArgs.length === 0) {
    await runMain(main, { rawArgs: ['--help'] });
  } else if (rawArgs.includes('--help') || rawArgs.includes('-h') || rawArgs[0] === '--version') {
    await runMain(main, { rawArgs });
  } else {
    await runCommand(main, { rawArgs });
  }
} catch (error) {
  const e = error as Error & { code?: string };
  if (error instanceof CliFailure) process.stderr.write(`svc: ${e.message}\n`);
  else if (e.code === 'EARG' || e.code?.startsWith('E_')) process.stderr.write(`svc: ${e.message} (add --help to see the usage)\n`);
  else process.stderr.write(`svc: unexpected failure: ${e.message}\n`);
  process.exitCode = error instanceof CliFailure ? error.exitCode : 1;
}

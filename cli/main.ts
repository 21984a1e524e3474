// `svc`: the command line as a process. Each command group is its own file (commands.ts lists them);
// run.ts runs one command line; this one wires it to the process.
import '../build/plain-output.ts'; // first: before citty reads the environment
import { EXIT } from './fail.ts';
import { runSvc } from './run.ts';

// A reader that stops early (`svc search email | head -1`, or `2>&1 | head -1`) closes the pipe;
// that ends the command quietly, with the exit code of what it did, instead of in a stack trace.
const closedPipe = (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') process.stderr.write(`svc: cannot write the output (${e.code ?? e.message}).\n`);
  process.exit(e.code === 'EPIPE' ? Number(process.exitCode ?? 0) : EXIT.unexpected);
};
process.stdout.on('error', closedPipe);
process.stderr.on('error', closedPipe);

await runSvc(process.argv.slice(2));

// `svc batch CAPABILITY FILE -o OUT` (or `svc batch hub:TOOL FILE -o OUT`): a whole list through a
// running svc's batch endpoint (the run itself is batch-run.ts). Here: the flags, and Ctrl-C: the
// first asks svc to start no more rows and waits for the rows in flight, the second stops waiting.
import { defineCommand } from 'citty';
import { runBatchCommand } from './batch-run.ts';
import { EXIT } from './fail.ts';

/**
 * The two Ctrl-Cs as signals. Once the run has ended (or after a third), a Ctrl-C ends the process at
 * once with the code decided so far: one that came as the process was exiting would otherwise end it
 * by the signal, without the 130 a script reads.
 */
function interrupts(): { stop: AbortSignal; abandon: AbortSignal; end: () => void } {
  const stop = new AbortController();
  const abandon = new AbortController();
  let ended = false;
  process.on('SIGINT', () => {
    if (ended || abandon.signal.aborted) process.exit(Number(process.exitCode ?? EXIT.interrupted));
    if (stop.signal.aborted) abandon.abort();
    else stop.abort();
  });
  return {
    stop: stop.signal,
    abandon: abandon.signal,
    end: () => {
      ended = true;
    },
  };
}

export const batch = defineCommand({
  meta: { name: 'batch' },
  args: {
    capability: { type: 'positional', required: true, description: 'routed capability, e.g. people.email.find, or a tool: hub:<tool_id>, hub:<tool_id>@N' },
    file: { type: 'positional', required: true, description: 'input list: .csv with a header row, or .ndjson/.jsonl' },
    out: { type: 'string', alias: 'o', required: true, description: 'output file (.csv or .ndjson); rows already answered in it are not called again' },
    map: { type: 'string', description: 'column=field pairs, comma separated, for columns not named like the field' },
    'max-cost': { type: 'string', description: 'most the whole run may spend, in USD' },
    concurrency: { type: 'string', default: '8', description: 'rows in flight at once (1..32)' },
    rejects: { type: 'string', description: 'where rows refused or failed are named with their reason (default: OUT with .rejects before its extension)' },
    json: { type: 'boolean', description: "print the run's summary as JSON on stdout" },
  },
  async run({ args }) {
    const signals = interrupts();
    try {
      process.exitCode = await runBatchCommand(
        {
          capability: args.capability,
          file: args.file,
          out: args.out,
          map: args.map,
          maxCost: args['max-cost'],
          concurrency: args.concurrency,
          rejects: args.rejects,
          json: Boolean(args.json),
        },
        {
          env: process.env,
          stderr: (t) => process.stderr.write(t),
          stdout: (t) => process.stdout.write(t),
          tty: Boolean(process.stderr.isTTY),
          stop: signals.stop,
          abandon: signals.abandon,
        },
      );
    } finally {
      signals.end();
    }
  },
});

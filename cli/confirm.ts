// A yes/no question before an action that cannot be undone. Only a person at a terminal can answer:
// without one (a script, a pipe) the command stops and says to pass --yes, rather than guess.
import { createInterface } from 'node:readline/promises';
import { CliFailure, EXIT } from './fail.ts';

export async function confirm(question: string): Promise<void> {
  if (!process.stdin.isTTY) throw new CliFailure(`${question} Nothing done: no terminal to answer; pass --yes to go ahead.`, EXIT.usage);
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (await rl.question(`${question} [y/N] `)).trim().toLowerCase();
    if (answer !== 'y' && answer !== 'yes') throw new CliFailure('Nothing done.', EXIT.usage);
  } finally {
    rl.close();
  }
}

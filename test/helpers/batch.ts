// `svc batch` run in process against a routed world: its function called with the options a command
// line gives, stderr and stdout captured, and the exit code it answers (a refusal before anything is
// sent, a CliFailure, answers its own code).
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { runBatchCommand, type BatchOptions } from '../../cli/batch-run.ts';
import { CliFailure } from '../../cli/fail.ts';
import { ledgerCharges, type RoutedWorld } from './routed.ts';

export interface BatchResult {
  code: number;
  stderr: string;
  stdout: string;
}

export async function batchCli(
  w: RoutedWorld,
  o: Partial<BatchOptions> & Pick<BatchOptions, 'capability' | 'file' | 'out'>,
  token = w.token,
): Promise<BatchResult> {
  let stderr = '';
  let stdout = '';
  const never = new AbortController().signal;
  try {
    const code = await runBatchCommand(
      { concurrency: '8', json: false, ...o },
      {
        env: { SVC_URL: w.url, SVC_TOKEN: token },
        stderr: (t) => {
          stderr += t;
        },
        stdout: (t) => {
          stdout += t;
        },
        tty: false,
        stop: never,
        abandon: never,
      },
    );
    return { code, stderr, stdout };
  } catch (e) {
    if (!(e instanceof CliFailure)) throw e;
    return { code: e.exitCode, stderr: stderr + e.message, stdout };
  }
}

/** the team's charges as its ledger (GET /teams/me/ledger) holds them: micro-USD by call id */
export async function chargesByCall(w: RoutedWorld): Promise<Map<string, number>> {
  const byCall = new Map<string, number>();
  for (const c of (await ledgerCharges(w)) as Array<{ call_id?: string; amount_micro: number }>)
    byCall.set(c.call_id ?? '', (byCall.get(c.call_id ?? '') ?? 0) - c.amount_micro);
  return byCall;
}

/** a CSV file the batch wrote, as rows of its columns */
export const readCsv = (path: string) => parse(readFileSync(path, 'utf8'), { columns: true }) as Array<Record<string, string>>;

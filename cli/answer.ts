// What a routed call or a tool run answered, told to a person: the output on stdout, a line about
// who served it and what it cost on stderr, the attempts when nothing hit.
import { EXIT } from './fail.ts';
import { failureOf, type Answer } from './http.ts';
import { note, out, printJson, record, table, usd } from './print.ts';

interface Tried {
  endpoint_id: string;
  outcome: string;
  reason?: string;
  status?: number;
  cost_micro: number;
}
export interface SvcBlock {
  call_id?: string;
  served_by?: string | null;
  cost_micro?: number;
  tried?: Tried[];
  stopped?: string;
  step?: string;
  verification?: { verdict: string };
}

const triedTable = (tried: Tried[]) =>
  table(
    ['PROVIDER', 'OUTCOME', 'WHY', 'COST'],
    tried.map((t) => [t.endpoint_id, t.outcome, t.reason ?? (t.status ? `HTTP ${t.status}` : ''), usd(t.cost_micro)]),
  );

/**
 * Prints the answer (the whole body under --json); a miss sets exit code 3, and a 4xx or 5xx
 * becomes a CliFailure carrying the body.
 */
export function tellAnswer(a: Answer, asJson: boolean, isMiss: (svc: SvcBlock) => boolean): void {
  if (a.status >= 300) {
    const svc = (a.data as { _svc?: SvcBlock } | null)?._svc;
    if (svc?.tried?.length && !asJson) note(triedTable(svc.tried));
    throw failureOf(a);
  }
  const { output, _svc: svc = {} } = a.data as { output: unknown; _svc?: SvcBlock };
  const miss = isMiss(svc);
  if (asJson) printJson(a.data);
  else if (miss) {
    if (svc.tried?.length) note(triedTable(svc.tried));
    note(
      `miss: nothing found${svc.stopped ? ` (stopped: ${svc.stopped}${svc.step ? ` at step ${svc.step}` : ''})` : ''}; cost ${usd(svc.cost_micro ?? 0)}; ${svc.call_id ?? ''}`.replace(
        /; $/,
        '',
      ),
    );
  } else {
    out(record(output));
    const verified = svc.verification ? `; verification: ${svc.verification.verdict}` : '';
    note(`hit${svc.served_by ? `: served by ${svc.served_by}` : ''}${verified}; cost ${usd(svc.cost_micro ?? 0)}; ${svc.call_id ?? ''}`.replace(/; $/, ''));
  }
  if (miss) process.exitCode = EXIT.miss;
}

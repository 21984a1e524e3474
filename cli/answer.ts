// What a routed call or a tool run answered, told to a person: the output on stdout, a line about
// who served it and what it cost on stderr, the attempts when nothing hit.
import { EXIT } from './fail.ts';
import { failureOf, type Answer } from './http.ts';
import { note, out, printJson, record, table, usd } from './print.ts';
import { KEY_TROUBLE } from '../runtime/router/classify.ts';

interface Tried {
  endpoint_id: string;
  outcome: string;
  reason?: string;
  status?: number;
  cost_micro: number;
  key?: 'own';
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
/**
 * A line for each of the team's own keys a provider refused during the call: svc set it aside and
 * went on with its platform key, on the balance, which the call's cost line alone would not say.
 */
function refusedOwnKeys(svc: SvcBlock): void {
  for (const t of svc.tried ?? []) {
    // the statuses on which the router sets an own key aside and calls again with its platform key
    if (t.key !== 'own' || t.outcome !== 'error' || !KEY_TROUBLE.has(t.status ?? 0)) continue;
    const provider = t.endpoint_id.slice(0, t.endpoint_id.indexOf('.'));
    note(
      `your team's key for ${provider} was refused (HTTP ${t.status}): svc sets it aside for a while and calls ${provider} with its platform key, on your balance; replace it on the dashboard's account page or with POST /teams/me/keys/${provider}`,
    );
  }
}

export function tellAnswer(a: Answer, asJson: boolean, isMiss: (svc: SvcBlock) => boolean): void {
  if (!asJson) refusedOwnKeys(((a.data as { _svc?: SvcBlock } | null)?._svc ?? {}) as SvcBlock);
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

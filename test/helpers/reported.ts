// What every test of a provider stating its charge checks of a routed call: the attempt bills the
// reported figure and names the list price beside it, the ledger row keeps both, and the sandbox
// billed the same; or, past what the ceiling left, the attempt is billed the cap and says so.
import { expect } from 'vitest';
import { ledgerCharges, type RoutedWorld } from './routed.ts';

type Answer = { body: any };

/** an operation's report as the attempt should carry it: `micro` is `value` `unit` at the catalog's price per unit */
export interface Report {
  endpoint_id: string;
  list_micro: number;
  value: number;
  unit: string;
  micro: number;
}

/** the ledger's charge rows of one call */
export const chargesOf = async (w: RoutedWorld, callId: string) => (await ledgerCharges(w)).filter((e) => (e as { call_id?: string }).call_id === callId);

/** the first attempt is a hit billed the reported figure, uncapped, naming both figures */
export function expectReportedHit(r: Answer, c: Report): void {
  expect(r.body._svc.tried[0]).toMatchObject({
    endpoint_id: c.endpoint_id,
    outcome: 'hit',
    cost_micro: c.micro,
    list_micro: c.list_micro,
    reported: { value: c.value, unit: c.unit, micro: c.micro },
  });
  expect(r.body._svc.tried[0].cap_micro).toBeUndefined();
}

/** as expectReportedHit, and the call's ledger row and the sandbox's bill (reset before the call) carry the same figures */
export async function expectBilledAsReported(w: RoutedWorld, r: Answer, c: Report): Promise<void> {
  expectReportedHit(r, c);
  expect(await chargesOf(w, r.body._svc.call_id)).toEqual([
    expect.objectContaining({
      endpoint_id: c.endpoint_id,
      amount_micro: -c.micro,
      list_micro: c.list_micro,
      reported_micro: c.micro,
      reported_value: c.value,
      reported_unit: c.unit,
    }),
  ]);
  expect((await w.billing())[c.endpoint_id]).toEqual({ calls: 1, billed_micro: c.micro });
}

/** the first attempt reported more than the ceiling left: it is billed the cap and names the list price, the report and the cap */
export function expectCappedAttempt(r: Answer, c: Omit<Report, 'unit'> & { cap_micro: number }): void {
  expect(r.body._svc.tried[0]).toMatchObject({
    endpoint_id: c.endpoint_id,
    cost_micro: c.cap_micro,
    list_micro: c.list_micro,
    reported: { value: c.value, micro: c.micro },
    cap_micro: c.cap_micro,
  });
}

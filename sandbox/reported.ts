// Providers whose answers state what they charged (cost.reported_charge): the sandbox states the
// figure it bills where the catalog says to read it (the body path, or the response header), in the
// catalog's unit, so svc bills what the sandbox says it billed.
// `charge<N>-<service>` makes that provider report (and bill) N units whatever the list price says.
import { microPerReportedUnit, reportedUnits } from '../language/reported-charge.ts';
import { setPath } from '../language/json-path.ts';
import type { Answered } from './answer.ts';
import type { SandboxOperation } from './types.ts';

export function withReported(op: SandboxOperation, a: Answered, steeredUnits: number | null): Answered {
  const rc = op.cost?.reported_charge;
  if (!rc || a.status < 200 || a.status >= 300) return a;
  const inBody = rc.header === undefined;
  if (inBody && (!a.body || typeof a.body !== 'object' || Array.isArray(a.body))) return a;
  const micro = steeredUnits === null ? (a.charge?.micro ?? 0) : Math.round(steeredUnits * microPerReportedUnit(op));
  const units = steeredUnits ?? reportedUnits(op, micro);
  const charge = a.charge || micro ? { endpoint_id: op.endpoint_id, micro } : null;
  if (!inBody) return { status: a.status, body: a.body, charge, headers: { ...a.headers, [rc.header!]: String(units) } };
  const body = structuredClone(a.body) as Record<string, unknown>;
  setPath(body, rc.path!, units);
  return { status: a.status, body, charge, headers: a.headers };
}

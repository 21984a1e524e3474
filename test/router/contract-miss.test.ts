// A contract miss the provider bills (bills_contract_miss): the fixture catalog plus MailCo
// (test/fixtures/contract-miss), built for real, MailCo answered by a loopback server, everything else
// by the sandbox. An answer MailCo counts but that has no email is charged MailCo's price in `tried`,
// `_svc.cost_micro`, X-Svc-Cost-Micro and the ledger, and the waterfall goes on; the plan counts it.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../build/pipeline.ts';
import { FIXTURE_SRC, ROOT } from '../helpers/paths.ts';
import { DOORS, ledgerCharges, routedWorld, type RoutedWorld } from '../helpers/routed.ts';

const MAILCO = 'mailco.people.email.find';
const SUBJECT = { domain: 'stripe.com', first_name: 'Jane', last_name: 'Doe' };
const PREFER = { 'X-Svc-Route-Prefer': 'mailco' };

let dir: string;
let upstream: Server;
let asked: string[] = [];
let w: RoutedWorld;

/** MailCo: `nohit` in the last name is its own miss (not counted); any other search is answered without an email. */
function mailco(): Promise<Server> {
  const s = createServer((req, res) => {
    asked.push(req.url ?? '');
    const last = new URL(req.url ?? '/', 'http://x').searchParams.get('last') ?? '';
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify(last.includes('nohit') ? { result: 'not_found' } : { result: 'found', person: { email: null, first_name: 'Jane', last_name: 'Doe' } }),
    );
  });
  return new Promise((r) => s.listen(0, '127.0.0.1', () => r(s)));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-contract-miss-'));
  cpSync(FIXTURE_SRC, join(dir, 'src'), { recursive: true });
  cpSync(join(ROOT, 'test', 'fixtures', 'contract-miss'), join(dir, 'src'), { recursive: true });
  const built = await buildCatalog({ src: join(dir, 'src'), out: join(dir, 'dist', 'catalog') });
  expect(built.errors).toEqual([]);
  upstream = await mailco();
  w = await routedWorld(join(dir, 'dist'), { env: { SVC_BASE_MAILCO: `http://127.0.0.1:${(upstream.address() as { port: number }).port}` } });
});

afterAll(async () => {
  await w?.close();
  upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

const charges = () => ledgerCharges(w);
/** each attempt of a routed answer as [endpoint_id, outcome, reason, cost_micro] */
const tried = (body: { _svc: { tried: Array<{ endpoint_id: string; outcome: string; reason?: string; cost_micro: number }> } }) =>
  body._svc.tried.map((t) => [t.endpoint_id, t.outcome, t.reason, t.cost_micro]);

describe('the plan counts a contract miss MailCo bills', () => {
  it('puts MailCo after the children whose misses are free, at its price as the worst case', async () => {
    const r = await w.call('/proxy/people.email.find', SUBJECT, { 'X-Svc-Route-Dry-Run': '1' });
    expect(r.body.plan.map((a: { endpoint_id: string }) => a.endpoint_id)).toEqual(['findco.people.email.find', 'findco.people.email.find.bulk', MAILCO]);
    expect(r.body.plan[2].worst_cost_micro).toBe(5000);
    expect(r.body.worst_cost_micro).toBe(20000 + 40000 + 5000);
  });

  it('a dry run with MailCo first holds its contract miss and the next child within the worst case', async () => {
    const r = await w.call('/proxy/people.email.find', SUBJECT, { ...PREFER, 'X-Svc-Route-Dry-Run': '1' });
    expect(r.body.plan.map((a: { endpoint_id: string; worst_cost_micro: number }) => [a.endpoint_id, a.worst_cost_micro])).toEqual([
      [MAILCO, 5000],
      ['findco.people.email.find', 20000],
      ['findco.people.email.find.bulk', 40000],
    ]);
    expect(r.body.worst_cost_micro).toBe(65000);
  });
});

describe.each(DOORS)('an answer MailCo bills but the contract calls a miss, through the %s door', (door) => {
  it("is charged MailCo's price everywhere, and the waterfall falls through to the next child", async () => {
    const [ledgerBefore, balanceBefore] = [await charges(), await w.ctx.state.balance(w.teamId)];
    asked = [];
    const r = await w.through(door)('/proxy/people.email.find', SUBJECT, PREFER);
    expect(r.status).toBe(200);
    expect(asked).toHaveLength(1);
    expect(tried(r.body)).toEqual([
      [MAILCO, 'miss', 'empty result', 5000],
      ['findco.people.email.find', 'hit', undefined, 20000],
    ]);
    expect(r.body._svc).toMatchObject({ served_by: 'findco.people.email.find', cost_micro: 25000 });
    expect(r.headers.get('x-svc-cost-micro')).toBe('25000');
    const ledgerAfter = await charges();
    expect(
      ledgerAfter
        .slice(0, ledgerAfter.length - ledgerBefore.length)
        .map((e) => [e.endpoint_id, -e.amount_micro])
        .sort(),
    ).toEqual([
      ['findco.people.email.find', 20000],
      [MAILCO, 5000],
    ]);
    expect(balanceBefore - (await w.ctx.state.balance(w.teamId))).toBe(25000);
  });
});

describe('what a contract miss leaves of the ceiling', () => {
  it('the next child that would pass the ceiling is skipped: the call spends no more than it was allowed', async () => {
    const r = await w.call('/proxy/people.email.find', SUBJECT, { ...PREFER, 'X-Svc-Route-Max-Cost': '0.02' });
    expect(tried(r.body)).toEqual([
      [MAILCO, 'miss', 'empty result', 5000],
      ['findco.people.email.find', 'skipped', 'over_ceiling', 0],
      ['findco.people.email.find.bulk', 'skipped', 'over_ceiling', 0],
    ]);
    expect(r.body._svc.cost_micro).toBe(5000);
    expect(r.headers.get('x-svc-cost-micro')).toBe('5000');
  });

  it('a balance that covers only MailCo pays its contract miss and skips the rest, never going below zero', async () => {
    const { team, token } = (await w.ctx.state.createTeam('contract miss team', 5000))!;
    const r = await w.call('/proxy/people.email.find', SUBJECT, PREFER, token);
    expect(r.status).toBe(200);
    expect(tried(r.body)).toEqual([
      [MAILCO, 'miss', 'empty result', 5000],
      ['findco.people.email.find', 'skipped', 'balance', 0],
      ['findco.people.email.find.bulk', 'skipped', 'balance', 0],
    ]);
    expect(r.body._svc).toMatchObject({ cost_micro: 5000, stopped: 'balance' });
    expect(await w.ctx.state.balance(team.id)).toBe(0);
    // below MailCo's price, the 402 comes before anyone is called
    const poor = (await w.ctx.state.createTeam('poorer contract miss team', 4999))!;
    asked = [];
    const refused = await w.call('/proxy/people.email.find', SUBJECT, PREFER, poor.token);
    expect(refused.status).toBe(402);
    expect(asked).toEqual([]);
    expect(await w.ctx.state.balance(poor.team.id)).toBe(4999);
  });

  it("MailCo's own miss stays free", async () => {
    const r = await w.call('/proxy/people.email.find', { ...SUBJECT, last_name: 'nohit' }, { ...PREFER, 'X-Svc-Route-Waterfall': '0' });
    expect(r.body._svc.tried).toEqual([expect.objectContaining({ endpoint_id: MAILCO, outcome: 'miss', reason: 'provider said not found', cost_micro: 0 })]);
    expect(r.headers.get('x-svc-cost-micro')).toBe('0');
  });

  it('with the waterfall off, the call ends on the billed contract miss', async () => {
    const r = await w.call('/proxy/people.email.find', SUBJECT, { ...PREFER, 'X-Svc-Route-Waterfall': '0' });
    expect(r.body._svc).toMatchObject({ served_by: null, cost_micro: 5000 });
    expect(r.body.output.email).toBeNull();
  });
});

// `svc team ledger` against a real server: the team's ledger newest first, a charge whose provider
// stated its charge naming that figure beside the list price, in the same words as the dashboard,
// and --json carrying the API's fields as they are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { appContext, serve } from '../helpers/server.ts';
import { svcCli } from '../helpers/cli.ts';
import { reportedWords } from '../../language/ledger-words.ts';
import type { AppContext } from '../../runtime/context.ts';

describe('a reported charge in words', () => {
  const money = (m: number) => `$${m / 1_000_000}`;
  it('names the figure as stated, its money and the list price; one unit reads singular; USD is money already', () => {
    expect(reportedWords({ list_micro: 10_000, reported_micro: 30_000, reported_value: 3, reported_unit: 'credits' }, money)).toBe('reported 3 credits = $0.03; list $0.01');
    expect(reportedWords({ list_micro: 1_000, reported_micro: 1_000, reported_value: 1, reported_unit: 'person credits' }, money)).toBe('reported 1 person credit = $0.001; list $0.001');
    expect(reportedWords({ list_micro: 2_000, reported_micro: 2_000, reported_value: 1, reported_unit: 'searches' }, money)).toBe('reported 1 search = $0.002; list $0.002');
    expect(reportedWords({ list_micro: 2_000, reported_micro: 15_500, reported_value: 0.0155, reported_unit: 'usd' }, money)).toBe('reported $0.0155; list $0.002');
  });

  it('a row without both figures says nothing', () => {
    expect(reportedWords({}, money)).toBeNull();
    expect(reportedWords({ list_micro: 10_000 }, money)).toBeNull();
  });
});

describe('svc team ledger', () => {
  let ctx: AppContext;
  let server: { url: string; close: () => Promise<void> };
  let env: Record<string, string>;
  beforeAll(async () => {
    ctx = await appContext(FIXTURE_DIST);
    server = await serve(ctx);
    const { team, token } = (await ctx.state.createTeam('Cli Ledger Team', 1_000_000))!;
    await ctx.state.charge(team.id, 30_000, { endpoint_id: 'findco.people.email.find', call_id: 'call-reported', list_micro: 10_000, reported_micro: 30_000, reported_value: 3, reported_unit: 'credits' });
    await ctx.state.charge(team.id, 20_000, { endpoint_id: 'findco.people.email.find', call_id: 'call-listed' });
    env = { SVC_URL: server.url, SVC_TOKEN: token };
  });
  afterAll(async () => { await server?.close(); });

  it('prints the entries newest first; the reported charge names both figures, the others none', async () => {
    const r = await svcCli(['team', 'ledger'], env);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^at\s+kind\s+amount\s+what\s+call\s+reported$/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/charge\s+-0\.02 USD\s+findco\.people\.email\.find\s+call-listed\s+-$/);
    expect(lines[2]).toMatch(/charge\s+-0\.03 USD\s+findco\.people\.email\.find\s+call-reported\s+reported 3 credits = 0\.03 USD; list 0\.01 USD$/);
    expect(lines[3]).toMatch(/credit\s+1 USD\s+-\s+-\s+-$/);
  });

  it('--json carries the page as the API answers it, both figures included', async () => {
    const page = JSON.parse((await svcCli(['team', 'ledger', '--json'], env)).stdout);
    expect(page.next_cursor).toBeNull();
    expect(page.entries[1]).toMatchObject({ kind: 'charge', amount_micro: -30_000, call_id: 'call-reported', list_micro: 10_000, reported_micro: 30_000, reported_value: 3, reported_unit: 'credits' });
    expect(page.entries[0].reported_micro).toBeUndefined();
  });

  it('a full page says on stderr how to read on, and --cursor reads the older entries', async () => {
    const { team, token } = (await ctx.state.createTeam('Cli Long Ledger', 1_000_000))!;
    for (let i = 0; i < 50; i++) await ctx.state.charge(team.id, 1_000, { endpoint_id: 'findco.people.email.find', call_id: `call-${i}` });
    const first = await svcCli(['team', 'ledger'], { ...env, SVC_TOKEN: token });
    expect(first.stdout.trimEnd().split('\n')).toHaveLength(51);
    const cursor = /^older entries: svc team ledger --cursor (\S+)\n$/.exec(first.stderr)?.[1];
    expect(cursor).toBeDefined();
    const older = await svcCli(['team', 'ledger', '--cursor', cursor!], { ...env, SVC_TOKEN: token });
    expect(older).toMatchObject({ code: 0, stderr: '' });
    expect(older.stdout).toMatch(/^at.*\n\S+\s+credit\s+1 USD/);
  });
});

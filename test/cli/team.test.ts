// `svc me`, `svc me ledger`, `svc feedback`, `svc review` against a real server: what the team sees
// of itself, and what it tells svc, read back through the API and `svc me feedback` / `svc me reviews`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { appContext, serve } from '../helpers/server.ts';
import { svcCli } from '../helpers/cli.ts';
import type { AppContext } from '../../runtime/context/context.ts';

let ctx: AppContext;
let server: { url: string; close: () => Promise<void> };
let env: Record<string, string>;
beforeAll(async () => {
  ctx = await appContext(FIXTURE_DIST);
  server = await serve(ctx);
  const { team, token } = (await ctx.state.createTeam('Cli Me Team', 2_500_000))!;
  await ctx.state.setOwnKey(team.id, 'findco', 'own-findco-key-123');
  env = { SVC_URL: server.url, SVC_TOKEN: token };
});
afterAll(async () => {
  await server?.close();
});

describe('svc me', () => {
  it('shows the team, its balance and the providers it holds keys for, never a key', async () => {
    const r = await svcCli(['me'], env);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^team\s+cli-me-team\nname\s+Cli Me Team\nbalance\s+\$2\.50\nearnings\s+\$0\.00\nown_keys\s+findco\n$/);
    expect(r.stdout).not.toContain('own-findco-key');
    expect(JSON.parse((await svcCli(['me', '--json'], env)).stdout)).toEqual({
      team: 'cli-me-team',
      name: 'Cli Me Team',
      balance_micro: 2_500_000,
      earnings_micro: 0,
      own_keys: ['findco'],
      own_keys_set_aside: [],
    });
  });

  it('says when a stored key is set aside (its provider refused it), until when, and that the platform key serves meanwhile', async () => {
    const { team, token } = (await ctx.state.createTeam('Cli Set Aside Team', 1_000_000))!;
    await ctx.state.setOwnKey(team.id, 'findco', 'refused-findco-key');
    ctx.router.deps.health.coolOwnKey(team.id, 'findco');
    const r = await svcCli(['me'], { ...env, SVC_TOKEN: token });
    expect(r.stdout).toMatch(/\nown_keys\s+findco \(set aside until .+: the provider refused it; calls use the platform key\)\n$/);
    const json = JSON.parse((await svcCli(['me', '--json'], { ...env, SVC_TOKEN: token })).stdout);
    expect(json.own_keys_set_aside).toEqual([{ provider: 'findco', until: expect.any(String) }]);
  });

  it('a token the server does not know is refused (exit 4)', async () => {
    expect(await svcCli(['me'], { ...env, SVC_TOKEN: 'svc_nope' })).toMatchObject({ code: 4, stdout: '' });
  });
});

describe('svc me ledger', () => {
  let ledgerEnv: Record<string, string>;
  beforeAll(async () => {
    const { team, token } = (await ctx.state.createTeam('Cli Ledger Team', 1_000_000))!;
    await ctx.state.charge(team.id, 30_000, {
      endpoint_id: 'findco.people.email.find',
      call_id: 'call-reported',
      list_micro: 10_000,
      reported_micro: 30_000,
      reported_value: 3,
      reported_unit: 'credits',
    });
    await ctx.state.charge(team.id, 20_000, { endpoint_id: 'findco.people.email.find', call_id: 'call-listed' });
    ledgerEnv = { ...env, SVC_TOKEN: token };
  });

  it('prints the entries newest first; a charge whose provider stated its charge names both figures, as the dashboard does', async () => {
    const r = await svcCli(['me', 'ledger'], ledgerEnv);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^at\s+kind\s+amount\s+what\s+call\s+reported$/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/charge\s+-\$0\.02\s+findco\.people\.email\.find\s+call-listed\s+-$/);
    expect(lines[2]).toMatch(/charge\s+-\$0\.03\s+findco\.people\.email\.find\s+call-reported\s+reported 3 credits = \$0\.03; list \$0\.01$/);
    expect(lines[3]).toMatch(/credit\s+\$1\.00\s+-\s+-\s+-$/);
  });

  it('--json carries the page as the API answers it, both figures included', async () => {
    const page = JSON.parse((await svcCli(['me', 'ledger', '--json'], ledgerEnv)).stdout);
    expect(page.next_cursor).toBeNull();
    expect(page.entries[1]).toMatchObject({
      kind: 'charge',
      amount_micro: -30_000,
      call_id: 'call-reported',
      list_micro: 10_000,
      reported_micro: 30_000,
      reported_value: 3,
      reported_unit: 'credits',
    });
    expect(page.entries[0].reported_micro).toBeUndefined();
  });

  it('a full page says on stderr how to read on, and --cursor reads the older entries', async () => {
    const { team, token } = (await ctx.state.createTeam('Cli Long Ledger', 1_000_000))!;
    for (let i = 0; i < 50; i++) await ctx.state.charge(team.id, 1_000, { endpoint_id: 'findco.people.email.find', call_id: `call-${i}` });
    const first = await svcCli(['me', 'ledger'], { ...env, SVC_TOKEN: token });
    expect(first.stdout.trimEnd().split('\n')).toHaveLength(51);
    const cursor = /^older entries: svc me ledger --cursor (\S+)\n$/.exec(first.stderr)?.[1];
    expect(cursor).toBeDefined();
    const older = await svcCli(['me', 'ledger', '--cursor', cursor!], { ...env, SVC_TOKEN: token });
    expect(older).toMatchObject({ code: 0, stderr: '' });
    expect(older.stdout).toMatch(/^at.*\n\S+\s+credit\s+\$1\.00/);
  });
});

describe('svc feedback and svc review', () => {
  it('sends feedback with the message in words, and names the endpoint it is about', async () => {
    const r = await svcCli(['feedback', 'wrong_data', 'the', 'phone', 'is', 'stale', '--endpoint', 'findco.people.email.find', '--json'], env);
    expect(r.code).toBe(0);
    const { id, status } = JSON.parse(r.stdout);
    expect(status).toBe('received');
    const stored = await (await fetch(`${server.url}/feedback/${id}`, { headers: { 'x-svc-token': env.SVC_TOKEN } })).json();
    expect(stored).toMatchObject({ kind: 'wrong_data', message: 'the phone is stale', endpoint_id: 'findco.people.email.find' });
    const idea = await svcCli(['feedback', 'idea', 'a CLI line in every hint', '--capability', 'people.email.find'], env);
    expect(idea).toMatchObject({ code: 0, stderr: expect.stringMatching(/^feedback \d+ received; thank you\n$/) });
    const ideaId = /^feedback (\d+)/.exec(idea.stderr)![1];
    expect(await (await fetch(`${server.url}/feedback/${ideaId}`, { headers: { 'x-svc-token': env.SVC_TOKEN } })).json()).toMatchObject({
      kind: 'idea',
      capability: 'people.email.find',
    });
    expect(await svcCli(['feedback', 'rant', 'x'], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/kind/) });
  });

  it('reviews an endpoint, and the review shows on its entry', async () => {
    const r = await svcCli(['review', 'findco.people.email.find', 'useful', 'found', 'the', 'right', 'address'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^review \d+ of findco\.people\.email\.find for \d{4}-\d{2}: useful\n$/);
    const entry = await (await fetch(`${server.url}/catalog/endpoints/findco.people.email.find`)).json();
    expect(entry.endpoint.reviews.samples[0]).toMatchObject({ usefulness: 'useful', reason: 'found the right address', client: 'svc-cli' });
    // a second review this month replaces the first, and says so
    const again = await svcCli(['review', 'findco.people.email.find', 'partly', 'missed', 'one'], env);
    expect(again.stderr).toMatch(
      /^review \d+ of findco\.people\.email\.find for \d{4}-\d{2}: partly \(replaces your team's earlier review of it this month\)\n$/,
    );
    expect(await svcCli(['review', 'findco.people.email.find', 'great', 'x'], env)).toMatchObject({ code: 2 });
    expect(await svcCli(['review', 'findco.people.email.find', 'useful'], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/REASON/) });
  });
});

describe('svc me feedback and svc me reviews', () => {
  it("list what the team sent, newest first, every page, and never another team's", async () => {
    const { team } = (await ctx.state.createTeam('Cli Sent Team', 0))!;
    const other = (await ctx.state.createTeam('Cli Other Team', 0))!;
    const token = (await ctx.state.issueToken(team.id)).token;
    const as = { ...env, SVC_TOKEN: token };
    expect(await svcCli(['me', 'feedback'], as)).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^\(no feedback sent yet: svc feedback KIND MESSAGE sends some\)\n$/),
    });
    for (let i = 0; i < 55; i++) await ctx.feedback.submit(team.id, { kind: 'idea', message: `idea number ${i}` });
    await ctx.feedback.submit(team.id, { kind: 'bug', message: 'the phone is stale', endpoint_id: 'findco.people.email.find' });
    await ctx.feedback.submit(other.team.id, { kind: 'bug', message: 'from the other team' });
    await ctx.reviews.submit(team.id, { endpoint_id: 'findco.people.email.find', usefulness: 'partly', reason: 'misses small companies' });

    const listed = await svcCli(['me', 'feedback'], as);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id\s+sent\s+kind\s+about\s+status\s+message$/);
    expect(lines[1]).toMatch(/^\d+\s+\d{4}-\d\d-\d\d\s+bug\s+findco\.people\.email\.find\s+received\s+the phone is stale$/);
    expect(lines).toHaveLength(57); // the head and all 56, over two pages
    expect(listed.stdout).not.toContain('from the other team');
    const asJson = JSON.parse((await svcCli(['me', 'feedback', '--json'], as)).stdout) as { feedback: Array<{ id: number; message: string }> };
    expect(asJson.feedback.map((f) => f.message)).toEqual(['the phone is stale', ...Array.from({ length: 55 }, (_, i) => `idea number ${54 - i}`)]);

    const reviews = await svcCli(['me', 'reviews'], as);
    expect(reviews.stdout).toMatch(/^month\s+operation\s+usefulness\s+reason\n\d{4}-\d\d\s+findco\.people\.email\.find\s+partly\s+misses small companies\n$/);
    expect(JSON.parse((await svcCli(['me', 'reviews', '--json'], as)).stdout).reviews).toEqual([
      expect.objectContaining({ endpoint_id: 'findco.people.email.find', usefulness: 'partly', client: '' }),
    ]);
    // `svc me` itself is unchanged by its subcommands
    expect((await svcCli(['me'], as)).stdout).toMatch(/^team\s+cli-sent-team\n/);
  });
});

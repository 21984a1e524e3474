// `svc me`, `svc feedback`, `svc review` against a real server: what the team sees of itself, and
// what it tells svc, read back through the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { appContext, serve } from '../helpers/server.ts';
import { svcCli } from '../helpers/cli.ts';
import type { AppContext } from '../../runtime/context.ts';

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
afterAll(async () => { await server?.close(); });

describe('svc me', () => {
  it('shows the team, its balance and the providers it holds keys for, never a key', async () => {
    const r = await svcCli(['me'], env);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^team\s+cli-me-team\nname\s+Cli Me Team\nbalance\s+2\.50 USD\nearnings\s+0 USD\nown_keys\s+findco\n$/);
    expect(r.stdout).not.toContain('own-findco-key');
    expect(JSON.parse((await svcCli(['me', '--json'], env)).stdout)).toEqual({ team: 'cli-me-team', name: 'Cli Me Team', balance_micro: 2_500_000, earnings_micro: 0, own_keys: ['findco'] });
  });

  it('a token the server does not know is refused (exit 4)', async () => {
    expect(await svcCli(['me'], { ...env, SVC_TOKEN: 'svc_nope' })).toMatchObject({ code: 4, stdout: '' });
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
    expect(await (await fetch(`${server.url}/feedback/${ideaId}`, { headers: { 'x-svc-token': env.SVC_TOKEN } })).json()).toMatchObject({ kind: 'idea', capability: 'people.email.find' });
    expect(await svcCli(['feedback', 'rant', 'x'], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/kind/) });
  });

  it('reviews an endpoint, and the review shows on its entry', async () => {
    const r = await svcCli(['review', 'findco.people.email.find', 'useful', 'found', 'the', 'right', 'address'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^review \d+ of findco\.people\.email\.find for \d{4}-\d{2}: useful\n$/);
    const entry = await (await fetch(`${server.url}/catalog/endpoints/findco.people.email.find`)).json();
    expect(entry.endpoint.reviews.samples[0]).toMatchObject({ usefulness: 'useful', reason: 'found the right address', client: 'svc-cli' });
    expect(await svcCli(['review', 'findco.people.email.find', 'great', 'x'], env)).toMatchObject({ code: 2 });
    expect(await svcCli(['review', 'findco.people.email.find', 'useful'], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/REASON/) });
  });
});

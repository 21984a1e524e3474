// `svc team tokens …` and `svc admin token …|team disable/enable` as a user runs them, against a
// real listening server: a token's secret printed once, listings without it, revokes refused at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/http/server.ts';
import { svcCli } from '../helpers/cli.ts';
import { ADMIN, testApp } from '../runtime/app-helper.ts';

let server: RunningServer;
let t: Awaited<ReturnType<typeof testApp>>;
let env: Record<string, string>;
let first = '';

beforeAll(async () => {
  t = await testApp();
  server = await startServer(t.app, { port: 0 });
  first = (await t.state.createTeam('Cli Tokens', 1_000_000))!.token;
  env = { SVC_URL: server.url, SVC_TOKEN: first, SVC_ADMIN_TOKEN: ADMIN };
});
afterAll(async () => {
  await server?.close();
});

describe('svc team tokens', () => {
  it('creates a named token with an expiry, lists it without its secret, and revokes it', async () => {
    const made = await svcCli(['team', 'tokens', 'create', '--name', 'ci deploys', '--expires', '30d'], env);
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^svc_[0-9A-Za-z]{32}\n$/); // the secret alone on stdout
    expect(made.stderr).toMatch(/^created token tok_[0-9a-f]{16} \(ci deploys\), expires 20\d\d-.*shown this once\n$/);
    const secret = made.stdout.trim();
    const id = /tok_[0-9a-f]{16}/.exec(made.stderr)![0];

    const list = await svcCli(['team', 'tokens', 'list'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^id\s+status\s+created\s+expires\s+name\n/);
    expect(list.stdout).toMatch(new RegExp(`${id}\\s+active\\s+\\S+\\s+20\\d\\d-\\S+\\s+ci deploys\\n`));
    expect(list.stdout).toMatch(/tok_[0-9a-f]{16} \*\s+active/); // the one in SVC_TOKEN
    expect(list.stdout).not.toContain(secret);
    expect(list.stdout).not.toContain(first);

    const revoked = await svcCli(['team', 'tokens', 'revoke', id, '--json'], env);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ id, status: 'revoked', name: 'ci deploys' });
    const refused = await svcCli(['me'], { ...env, SVC_TOKEN: secret });
    expect(refused).toMatchObject({ code: 4, stderr: expect.stringMatching(/^svc: This token was revoked at /) });
  }, 120_000);

  it('refuses a bad expiry before or at the server with a sentence (usage or refused)', async () => {
    expect(await svcCli(['team', 'tokens', 'create', '--expires', '0d'], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/already passed/) });
    expect(await svcCli(['team', 'tokens', 'create', '--expires', 'soon'], env)).toMatchObject({
      code: 4,
      stderr: expect.stringMatching(/expires_at.*ISO 8601/),
    });
  }, 120_000);
});

describe('svc admin token and team', () => {
  it('lists, revokes, and disables then enables a team', async () => {
    const list = await svcCli(['admin', 'token', 'list', 'cli-tokens', '--json'], env);
    const tokens = JSON.parse(list.stdout).tokens as Array<{ id: string; name: string }>;
    expect(tokens.map((x) => x.name)).toContain('first token');
    const disabled = await svcCli(['admin', 'team', 'disable', 'cli-tokens'], env);
    expect(disabled).toMatchObject({ code: 0, stdout: expect.stringMatching(/^disabled team cli-tokens \(since /) });
    expect(await svcCli(['me'], env)).toMatchObject({ code: 4, stderr: expect.stringMatching(/Team 'cli-tokens' is disabled/) });
    expect((await svcCli(['admin', 'team', 'enable', 'cli-tokens'], env)).stdout).toBe('enabled team cli-tokens\n');
    const firstId = tokens.find((x) => x.name === 'first token')!.id;
    expect((await svcCli(['admin', 'token', 'revoke', 'cli-tokens', firstId], env)).stdout).toMatch(new RegExp(`^revoked ${firstId} \\(first token\\) at `));
    expect((await svcCli(['me'], env)).code).toBe(4);
  }, 120_000);
});

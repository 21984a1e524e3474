// The `svc admin …` commands as a user runs them: a child process against a real listening server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/http/server.ts';
import { svcCli } from '../helpers/cli.ts';
import { ADMIN, testApp } from '../runtime/app-helper.ts';

let server: RunningServer;
let url = '';
let t: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  t = await testApp();
  server = await startServer(t.app, { port: 0 });
  url = server.url;
});
afterAll(async () => {
  await server?.close();
});

const svc = (args: string[], env: Record<string, string> = { SVC_URL: url, SVC_ADMIN_TOKEN: ADMIN }) => svcCli(args, env);

describe('svc in a pipe', () => {
  it('prints its usage and errors without colour codes', async () => {
    for (const args of [[], ['bogus']]) {
      const r = await svc(args);
      expect(r.stdout + r.stderr).toMatch(/svc/);
      expect(r.stdout + r.stderr).not.toContain('\x1b[');
    }
  });

  it('lists every command and the exit codes in --help', async () => {
    const r = await svc(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['search', 'show', 'find', 'call', 'hub', 'me', 'feedback', 'review', 'serve', 'demo', 'build', 'admin'])
      expect(r.stdout).toMatch(new RegExp(`^\\s+${c}\\s`, 'm'));
    expect(r.stdout).toMatch(
      /^Exit codes:\n {2}0 {2}done.*\n {2}2 {2}usage error.*\n {2}3 {2}a miss.*\n {2}4 {2}refused.*\n {2}5 {2}server error.*\n {2}6 {2}server not reachable/m,
    );
    expect(await svc(['bogus'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^svc: Unknown command bogus/) });
  });
});

describe('svc admin', () => {
  it('creates a team and prints its token on a line of its own', async () => {
    const r = await svc(['admin', 'team', 'create', 'Cli Team', '--credit', '2.50']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^svc_[0-9A-Za-z]{32}\n$/); // the token and nothing else
    expect(r.stderr).toBe('created team cli-team\n');
    const team = await t.state.teamForCredential({ token: r.stdout.trim() });
    expect(team?.slug).toBe('cli-team');
    expect(await t.state.balance(team!.id)).toBe(2_500_000);
  });

  it('prints {"token": …} with --json, issues tokens and credits', async () => {
    const tok = await svc(['admin', 'token', 'create', 'cli-team', '--json']);
    expect(tok.code).toBe(0);
    const { token } = JSON.parse(tok.stdout);
    expect((await t.state.teamForCredential({ token }))?.slug).toBe('cli-team');
    const bare = await svc(['admin', 'token', 'create', 'cli-team']);
    expect(bare.stdout).toMatch(/^svc_[0-9A-Za-z]{32}\n$/);
    expect((await t.state.teamForCredential({ token: bare.stdout.trim() }))?.slug).toBe('cli-team');
    const credit = await svc(['admin', 'credit', 'cli-team', '0.5']);
    expect(credit).toMatchObject({ code: 0, stdout: 'balance_micro: 3000000\n' });
    const json = await svc(['admin', 'team', 'create', 'Json Team', '--json']);
    expect(Object.keys(JSON.parse(json.stdout)).sort()).toEqual(['team', 'token']);
    const list = await svc(['admin', 'team', 'list']);
    expect(list).toMatchObject({ code: 0, stdout: 'cli-team\t3000000\tCli Team\njson-team\t0\tJson Team\n' });
  });

  it('fails with a sentence and the exit code of what went wrong', async () => {
    const taken = await svc(['admin', 'team', 'create', 'Cli Team']);
    expect(taken.code).toBe(4); // refused (409)
    expect(taken.stderr).toMatch(/already exists/);
    expect(await svc(['admin', 'credit', 'nobody', '1'])).toMatchObject({ code: 4, stderr: expect.stringMatching(/No team 'nobody'/) });
    expect(await svc(['admin', 'credit', 'cli-team', 'ten'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/not a USD amount/) });
    const negative = await svc(['admin', 'credit', 'cli-team', '-1']);
    expect(negative.code).toBe(2);
    expect(negative.stderr).toBe("svc: '-1' is a negative amount, which no svc command takes (credits are USD amounts such as 10 or 0.25).\n");
    const noToken = await svc(['admin', 'token', 'create', 'cli-team'], { SVC_URL: url });
    expect(noToken).toMatchObject({ code: 2, stderr: expect.stringMatching(/SVC_ADMIN_TOKEN is not set/) });
    expect(await svc(['admin', 'token', 'create', 'cli-team'], { SVC_URL: url, SVC_ADMIN_TOKEN: 'wrong' })).toMatchObject({
      code: 4,
      stderr: expect.stringMatching(/refused SVC_ADMIN_TOKEN/),
    });
    const down = await svc(['admin', 'token', 'create', 'cli-team'], { SVC_URL: 'http://127.0.0.1:9', SVC_ADMIN_TOKEN: ADMIN });
    expect(down).toMatchObject({ code: 6, stderr: expect.stringMatching(/Cannot reach/) });
    expect(down.stderr).not.toMatch(/at .*\.ts/); // no stack
  });
});

// `svc search`, `svc show`, `svc find` against a real server: tables for people, --json for
// scripts, exit 3 when nothing matches, and find's candidates printed before the judge has answered.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { appContext, serve } from '../helpers/server.ts';
import { SVC_BIN, svcCli, svcCliRunning, until } from '../helpers/cli.ts';

const run = promisify(execFile);

const closers: Array<() => Promise<void> | void> = [];
let env: Record<string, string>;
beforeAll(async () => {
  const s = await serve(await appContext(FIXTURE_DIST));
  closers.push(s.close);
  env = { SVC_URL: s.url };
});
afterAll(async () => {
  for (const c of closers.splice(0)) await c();
});

describe('svc search', () => {
  it('prints a table of matches, and the same results as JSON with --json', async () => {
    const r = await svcCli(['search', 'verify', 'email'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ID\s+KIND\s+PROVIDER\s+USD\s+HIT\s+NAME\n/);
    expect(r.stdout).toMatch(/^svc\.people\.email\.verify\s+routed\s+/m);
    expect(r.stderr).toMatch(/^\d+ of \d+; svc show ID for parameters, cost and siblings\n$/);
    const json = JSON.parse((await svcCli(['search', 'verify email', '--limit', '2', '--json'], env)).stdout);
    expect(json.q).toBe('verify email');
    expect(json.results).toHaveLength(2);
  });

  it('exits 3 when nothing matches, and 2 for a limit out of range', async () => {
    expect(await svcCli(['search', 'zzqxv'], env)).toMatchObject({ code: 3, stdout: '', stderr: "nothing matches 'zzqxv': try fewer or broader words\n" });
    expect(await svcCli(['search', 'email', '--limit', '500'], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^svc: --limit/) });
  });
});

describe('svc show', () => {
  it('prints cost, parameters with types and required marks, siblings and the next commands', async () => {
    const r = await svcCli(['show', 'findco.people.email.find'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^id\s+findco\.people\.email\.find$/m);
    expect(r.stdout).toMatch(/^cost\s+\$0\.02 per email \(per_success; documented, dollar rate assumed; https:\/\/findco\.test\/pricing\)$/m);
    expect(r.stdout).toMatch(/^IN\s+PARAMETER\s+TYPE\s+REQUIRED\s+NOTE\nquery\s+domain\s+string\s+yes/m);
    expect(r.stdout).toMatch(/^SIBLING\s+PROVIDER\s+USD\s+HIT\s+P50 MS$/m);
    expect(r.stdout).toMatch(/^Run it: curl .*\/proxy\/findco\/v1\/find/m);
    const routed = await svcCli(['show', 'svc.people.email.find'], env);
    expect(routed.stdout).toMatch(/^From a terminal: svc call people\.email\.find domain=stripe\.com full_name='Jane Doe'$/m);
    expect(JSON.parse((await svcCli(['show', 'svc.people.email.find', '--json'], env)).stdout).endpoint.id).toBe('svc.people.email.find');
  });

  // the one test of the `svc` command as a process (bin/svc.js): exit codes, and pipes closed early
  it('ends quietly, with its own exit code, when the reader closes stdout, or stderr too, early', async () => {
    // `true` reads nothing and exits at once, so every write of svc meets a closed pipe
    const svc = `"${process.execPath}" "${SVC_BIN}"`;
    const stdoutClosed = `${svc} show svc.people.email.find | true; echo "exit \${PIPESTATUS[0]}"`;
    const bothClosed = `for a in "show nope.nothing" "search zzzzqqqq"; do ${svc} $a 2>&1 | true; echo "exit \${PIPESTATUS[0]}"; done`;
    const r = await run('bash', ['--norc', '-c', `${stdoutClosed}; ${bothClosed}`], { env: { PATH: process.env.PATH, ...env } });
    expect(r).toMatchObject({ stdout: 'exit 0\nexit 4\nexit 3\n', stderr: '' });
  }, 60_000); // three processes, each loading the CLI through tsx

  it('an empty id is a usage error naming what to give, before anything is sent (exit 2)', async () => {
    for (const id of ['', '  '])
      expect(await svcCli(['show', id], env)).toMatchObject({
        code: 2,
        stdout: '',
        stderr: 'svc: svc show needs an endpoint id, such as svc.people.email.verify (svc search WORDS finds one).\n',
      });
  });

  it('blank words for search or find are a usage error, not a search for nothing (exit 2)', async () => {
    // nothing listens here: a request sent would be exit 6
    const nowhere = { ...env, SVC_URL: 'http://127.0.0.1:9' };
    expect(await svcCli(['search', '  '], nowhere)).toMatchObject({ code: 2, stderr: 'svc: svc search needs words, such as svc search verify email.\n' });
    expect(await svcCli(['find', ' '], nowhere)).toMatchObject({
      code: 2,
      stderr: "svc: svc find needs a job in words, such as svc find 'verify an email'.\n",
    });
  });

  it('an unknown id is refused with a hint that names svc search (exit 4)', async () => {
    expect(await svcCli(['show', 'nope.nothing'], env)).toMatchObject({ code: 4, stderr: "svc: No endpoint 'nope.nothing'; svc search WORDS finds one.\n" });
  });
});

/** A chat judge that answers only when released, so a test can see what was printed before. */
async function heldJudge(): Promise<{ url: string; release: () => void; asked: () => boolean }> {
  let release = () => {};
  let asked = false;
  const answer = new Promise<void>((r) => {
    release = r;
  });
  const server: Server = createServer(async (req, res) => {
    for await (const _ of req) {
      /* drain */
    }
    asked = true;
    await answer;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        choices: [
          {
            message: {
              content: JSON.stringify({
                kept: [{ endpoint_id: 'svc.people.email.verify', why: 'routed, cheapest first' }],
                verdict: 'use the routed verifier',
              }),
            },
          },
        ],
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => {
    release();
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`, release: () => release(), asked: () => asked };
}

describe('svc find', () => {
  it('prints the candidates at once, then the judged picks when the judge answers', async () => {
    const judge = await heldJudge();
    const s = await serve(await appContext(FIXTURE_DIST, { SVC_JUDGE_URL: judge.url, SVC_JUDGE_TIMEOUT_MS: '60000' }));
    closers.push(s.close);
    const find = svcCliRunning(['find', 'verify', 'an', 'email', '--json'], { SVC_URL: s.url });
    await until(() => find.output().stdout.includes('\n') && judge.asked(), 'the candidates line');
    const first = find
      .output()
      .stdout.split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(first).toHaveLength(1); // the judge has not answered yet
    expect(first[0]).toMatchObject({ event: 'candidates', q: 'verify an email' });
    judge.release();
    expect((await find.done).code).toBe(0);
    const lines = find
      .output()
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[1]).toEqual({
      event: 'judged',
      kept: [{ endpoint_id: 'svc.people.email.verify', why: 'routed, cheapest first' }],
      verdict: 'use the routed verifier',
    });
  });

  it('prints tables for people, and exits 3 when there is no candidate', async () => {
    const r = await svcCli(['find', 'verify an email address'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^CANDIDATE\s+PROVIDER\s+USD\s+NAME\n/);
    expect(r.stdout).toMatch(/^PICK\s+WHY\n/m);
    expect(await svcCli(['find', 'zzqxv'], env)).toMatchObject({ code: 3, stdout: '', stderr: expect.stringMatching(/^Nothing does this: /) });
  });
});

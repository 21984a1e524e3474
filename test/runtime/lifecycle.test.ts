// `npm start` as an operator meets it, in real processes: the data directory's lock, the checks that
// refuse a start, and a SIGTERM that lets a call in flight finish and its charge reach the ledger.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, loadSandboxCatalog, sandboxKeys, startSandbox, type RunningSandbox } from '../../sandbox/index.ts';
import { sandboxEnv } from '../../sandbox/svc-env.ts';
import { createState } from '../../runtime/state/index.ts';
import { childrenOf, collected, residentMb } from '../helpers/ran.ts';
import { REAL_DIST, ROOT } from '../helpers/paths.ts';

const tmp = mkdtempSync(join(tmpdir(), 'svc-life-'));
/** an absolute dist dir holding the real catalog and no dashboard yet: the first start builds it here */
const dist = join(tmp, 'dist');
const children: ChildProcess[] = [];

interface Started {
  child: ChildProcess;
  port: number;
  stderr: () => string;
  output: () => string;
  exited: Promise<number | null>;
  url: string;
}

/** Start svc as `npm start` does (`bin/start.js`, the compiled server); resolves once it listens, or once it exits. */
async function start(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['bin/start.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'test', PORT: '0', SVC_DIST_DIR: dist, SVC_SECRET: 'life-secret', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const output = collected(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<number>((resolve) => {
    child.stderr!.on('data', () => {
      const m = /svc listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output().stderr);
      if (m) resolve(Number(m[1]));
    });
  });
  const port = await Promise.race([listening, exited.then(() => 0)]);
  return { child, port, stderr: () => output().stderr, output: () => output().stdout + output().stderr, exited, url: `http://127.0.0.1:${port}` };
}

const dataDir = (name: string) => join(tmp, name);

beforeAll(() => {
  cpSync(join(REAL_DIST, 'catalog'), join(dist, 'catalog'), { recursive: true });
});
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

describe('the data directory lock', () => {
  it('refuses a second instance on one directory, naming it and the holder, and takes over a dead holder', async () => {
    const first = await start({ SVC_DATA_DIR: dataDir('locked') });
    expect(first.port).toBeGreaterThan(0);
    // an absolute SVC_DIST_DIR: the dashboard was built into it, and it is served
    expect(existsSync(join(dist, 'index.html'))).toBe(true);
    // by a process of its own that has ended (build/rebuild.ts): vite and the build's modules are not
    // the server's to keep (built in the server's own process, they held about 240 MB of it)
    expect(childrenOf(first.child.pid!)).toEqual([]);
    expect(residentMb(first.child.pid!)).toBeLessThan(150);
    expect((await fetch(`${first.url}/`)).headers.get('content-type')).toMatch(/text\/html/);
    expect(first.output()).not.toContain('\x1b['); // no colour codes into a pipe

    const second = await start({ SVC_DATA_DIR: dataDir('locked') });
    expect(await second.exited).toBe(1);
    expect(second.stderr().trim().split('\n')).toEqual([
      `svc: data directory ${dataDir('locked')} is in use by another svc process (pid ${first.child.pid}); stop that process, or give this one its own SVC_DATA_DIR.`,
    ]);
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200); // the holder is untouched

    first.child.kill('SIGKILL');
    await first.exited;
    const third = await start({ SVC_DATA_DIR: dataDir('locked') });
    expect(third.port).toBeGreaterThan(0);
    expect((await fetch(`${third.url}/readyz`)).status).toBe(200);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  }, 120_000);
});

describe('start checks', () => {
  let taken: Server;
  let takenPort = 0;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    takenPort = (taken.address() as { port: number }).port;
  });
  afterAll(() => {
    taken.close();
  });

  it('refuses a taken PORT with a sentence naming it (never another port)', async () => {
    const s = await start({ SVC_DATA_DIR: dataDir('port'), PORT: String(takenPort) });
    expect(await s.exited).toBe(1);
    expect(s.stderr()).toContain(`svc: port ${takenPort} on 127.0.0.1 is already in use by another process; stop it or set PORT to a free port.`);
    expect(s.stderr()).not.toMatch(/listening|\n\s+at /);
  }, 60_000);

  it('refuses an SVC_PUBLIC_URL that is not an http(s) URL', async () => {
    for (const bad of ['notaurl', 'ftp://svc.example.com']) {
      const s = await start({ SVC_DATA_DIR: dataDir('url'), SVC_PUBLIC_URL: bad });
      expect(await s.exited).toBe(2);
      expect(s.stderr()).toBe(`svc: SVC_PUBLIC_URL=${bad}: expected an http:// or https:// URL, such as https://svc.example.com\n`);
    }
  }, 60_000);

  it("refuses an SVC_PROXY_PREFIX under one of svc's own paths, which it would split between two sets of routes", async () => {
    for (const bad of ['/catalog', '/hub/calls']) {
      const s = await start({ SVC_DATA_DIR: dataDir('prefix'), SVC_PROXY_PREFIX: bad });
      expect(await s.exited).toBe(2);
      expect(s.stderr()).toMatch(
        new RegExp(
          `^svc: SVC_PROXY_PREFIX=${bad}: /${bad.split('/')[1]} is one of svc's own paths \\(.*/catalog.*/hub.*\\); choose another, such as /proxy\n$`,
        ),
      );
    }
  }, 60_000);
});

describe('SIGTERM', () => {
  let sandbox: RunningSandbox;
  let arrived: () => void;
  const slowArrived = new Promise<void>((r) => {
    arrived = r;
  });
  let slowProvider = '';

  afterAll(() => sandbox?.close());

  it('finishes a call in flight, records its charge, then exits 0 and takes no new connection', async () => {
    const runtime = loadSandboxCatalog(dist);
    const { keys } = sandboxKeys(runtime, {});
    const sb = createSandbox(runtime, { keys, stallMs: 60_000 });
    // watch the sandbox, so the signal is sent once the call is stalled at the slow child
    const handle = sb.handle.bind(sb);
    sb.handle = (service, req) => {
      if (service === slowProvider) arrived();
      return handle(service, req);
    };
    sandbox = await startSandbox(sb, 0);

    const dir = dataDir('drain');
    const setup = await createState({ storage: { kind: 'fs', dir: null }, dataDir: dir, secret: 'life-secret' });
    const { team, token } = (await setup.createTeam('Drain Co', 5_000_000))!;
    await setup.close();

    const s = await start({ SVC_DATA_DIR: dir, SVC_ATTEMPT_TIMEOUT_MS: '1500', ...sandboxEnv(runtime, sandbox.url, keys) });
    expect(s.port).toBeGreaterThan(0);
    const post = (body: object, headers: Record<string, string> = {}) =>
      fetch(`${s.url}/proxy/people.email.verify`, {
        method: 'POST',
        headers: { 'x-svc-token': token, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const dry = (await (await post({ email: 'jane@stripe.com' }, { 'x-svc-route-dry-run': '1' })).json()) as { plan: Array<{ endpoint_id: string }> };
    slowProvider = runtime.operations[dry.plan[0].endpoint_id].provider;

    const pending = post({ email: `slow-${slowProvider}.jane@stripe.com` });
    await slowArrived;
    s.child.kill('SIGTERM');
    const answer = await pending;
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { _svc: { served_by: string; cost_micro: number; tried: Array<{ outcome: string }> } };
    expect(body._svc.served_by).toMatch(/people\.email\.verify$/);
    expect(body._svc.tried[0].outcome).not.toBe('hit');
    expect(body._svc.cost_micro).toBeGreaterThan(0);
    expect(await s.exited).toBe(0);
    expect(s.stderr()).toContain('svc: SIGTERM: finishing calls in flight (up to 20000 ms), then stopping');
    // nothing listens any more
    await expect(new Promise((resolve, reject) => connect(s.port, '127.0.0.1').once('connect', resolve).once('error', reject))).rejects.toThrow(/ECONNREFUSED/);

    // the charge survived: the ledger after a restart holds it, and the lock was given back
    const after = await createState({ storage: { kind: 'fs', dir: null }, dataDir: dir, secret: 'life-secret' });
    const { entries } = await after.ledger(team.id, null);
    expect(entries.filter((e) => e.kind === 'charge').reduce((n, e) => n - e.amount_micro, 0)).toBe(body._svc.cost_micro);
    expect(await after.balance(team.id)).toBe(5_000_000 - body._svc.cost_micro);
    await after.close();
  }, 120_000);
});

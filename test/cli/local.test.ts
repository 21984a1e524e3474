// `svc serve`, `svc demo`, `svc build`: the package scripts as commands. The servers start, answer
// /healthz and stop with exit 0 on SIGTERM; the build validates a catalog source.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SRC, REAL_DIST } from '../helpers/paths.ts';
import { svcChild, svcCli, until } from '../helpers/cli.ts';

// A dist dir of our own: the real catalog (current with catalog-src, so nothing is rebuilt) and a
// stand-in dashboard page, so neither command builds anything.
let dist = '';
beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'svc-cli-dist-'));
  cpSync(join(REAL_DIST, 'catalog'), join(dist, 'catalog'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>svc</title>');
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const env = () => ({ SVC_DIST_DIR: dist, SVC_STORAGE: 'memory:', PORT: '0', SVC_SANDBOX_PORT: '0' });

async function startsAnswersAndStops(args: string[], listening: RegExp, stream: 'stdout' | 'stderr', extra: Record<string, string> = {}): Promise<string> {
  const s = svcChild(args, { ...env(), ...extra });
  try {
    await until(() => listening.test(s.output()[stream]), `${args.join(' ')} to listen`);
    const url = listening.exec(s.output()[stream])![1];
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    return s.output()[stream];
  } finally {
    s.child.kill('SIGKILL');
  }
}

describe('svc serve and svc demo', () => {
  it('serve listens (PORT, or --port), answers /healthz and stops on SIGTERM with exit 0', async () => {
    await startsAnswersAndStops(['serve'], /svc listening on (http:\/\/\S+)/, 'stderr');
    // --port wins over a PORT that would refuse to start
    await startsAnswersAndStops(['serve', '--port', '0'], /svc listening on (http:\/\/\S+)/, 'stderr', { PORT: 'not-a-port' });
  }, 120_000);

  it('demo starts with the sandbox and a token, answers /healthz and stops on SIGTERM with exit 0', async () => {
    const out = await startsAnswersAndStops(['demo'], /^dashboard: (http:\/\/localhost:\d+)\//m, 'stdout');
    expect(out).toMatch(/^token: svc_[A-Za-z0-9]{32}$/m);
  }, 120_000);
});

describe('svc build', () => {
  it("validates a catalog source with the build's own flags, writing nothing", async () => {
    const r = await svcCli(['build', '--check', '--src', FIXTURE_SRC], {});
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^build: valid \(\d+ providers, \d+ operations\); nothing written$/m);
    expect(await svcCli(['build', '--checks'], {})).toMatchObject({ code: 2, stderr: expect.stringMatching(/svc build has no option '--checks'/) });
  }, 60_000);
});

// Settings are checked once at start: defaults, accepted values, and a bad value stopping `npm start`
// with a sentence that names it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, describeStorage, readConfig } from '../../runtime/config/config.ts';
import { ranToExit } from '../helpers/ran.ts';

describe('readConfig', () => {
  it('answers the documented defaults', () => {
    const c = readConfig({});
    expect(c).toMatchObject({
      port: 8787,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:8787',
      proxyPrefix: '/proxy',
      trustProxy: false,
      attemptTimeoutMs: 15_000,
      maxAnswerBytes: 8 * 1024 * 1024,
      pollIntervalMaxMs: null,
      maxBodyBytes: 65_536,
      judgeTimeoutMs: 8000,
      findRatePerMinute: 30,
      judgeKey: null,
      judgeModel: null,
      sandboxPort: 8788,
      storage: { kind: 'fs', dir: null },
    });
  });

  it('reads what is set, trimmed', () => {
    const c = readConfig({
      PORT: ' 9000 ',
      SVC_TRUST_PROXY: '1',
      SVC_ATTEMPT_TIMEOUT_MS: '2500',
      SVC_POLL_INTERVAL_MAX_MS: '20',
      SVC_MAX_ANSWER_BYTES: '40',
      HOST: '0.0.0.0',
    });
    expect(c).toMatchObject({
      port: 9000,
      trustProxy: true,
      attemptTimeoutMs: 2500,
      pollIntervalMaxMs: 20,
      maxAnswerBytes: 40,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:9000',
    });
    expect(readConfig({ PORT: '0', SVC_TRUST_PROXY: '0', SVC_POLL_INTERVAL_MAX_MS: '' })).toMatchObject({
      port: 0,
      trustProxy: false,
      pollIntervalMaxMs: null,
    });
  });

  it('keeps a plain copy of the environment (the provider keys and bases are read from it on every call)', () => {
    const c = readConfig(process.env);
    expect(c.env).not.toBe(process.env);
    expect(c.env).toEqual({ ...process.env });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['SVC_ATTEMPT_TIMEOUT_MS', '1.5'],
    ['SVC_ATTEMPT_TIMEOUT_MS', '0'],
    ['SVC_MAX_ANSWER_BYTES', '8MB'],
    ['SVC_MAX_BODY_BYTES', '1e6'],
    ['SVC_POLL_INTERVAL_MAX_MS', 'fast'],
    ['SVC_FIND_RATE_PER_MINUTE', '0'],
    ['SVC_JUDGE_TIMEOUT_MS', 'NaN'],
    ['SVC_TRUST_PROXY', 'yes'],
    ['SVC_SANDBOX_PORT', 'auto'],
    ['SVC_LEDGER_SYNC_MS', '-1'],
    ['SVC_LEDGER_SYNC_MS', '0.5'],
    ['SVC_LEDGER_SYNC_MS', '60001'],
  ])('refuses %s=%s with a sentence naming it', (name, value) => {
    expect(() => readConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => readConfig({ [name]: value })).toThrow(`${name}=${value}: expected`);
  });
});

describe('SVC_PUBLIC_URL and SVC_PROXY_PREFIX', () => {
  it('refuse a public URL paths cannot be appended to, never echoing a password', () => {
    for (const bad of ['https://api.example.com/?x=1', 'https://api.example.com/#top', 'https://ops:hunter2@api.example.com', 'https://ops@api.example.com']) {
      expect(() => readConfig({ SVC_PUBLIC_URL: bad }), bad).toThrow(ConfigError);
      expect(() => readConfig({ SVC_PUBLIC_URL: bad }), bad).toThrow(/^SVC_PUBLIC_URL=.*: expected a base URL without user:password@, \?query or #fragment/);
    }
    expect(() => readConfig({ SVC_PUBLIC_URL: 'https://ops:hunter2@api.example.com' })).not.toThrow(/hunter2/);
    expect(readConfig({ SVC_PUBLIC_URL: 'https://example.com/svc/' }).publicUrl).toBe('https://example.com/svc');
  });

  it('refuse a proxy prefix that is the root (the proxy would answer at //<capability>); unset or empty is /proxy', () => {
    for (const bad of ['/', '//', '/a b', '/px?x'])
      expect(() => readConfig({ SVC_PROXY_PREFIX: bad }), bad).toThrow(`SVC_PROXY_PREFIX=${bad.trim()}: expected a path below the root, such as /proxy`);
    expect(readConfig({ SVC_PROXY_PREFIX: '' }).proxyPrefix).toBe('/proxy');
    expect(readConfig({ SVC_PROXY_PREFIX: 'px/' }).proxyPrefix).toBe('/px');
    expect(readConfig({ SVC_PROXY_PREFIX: '/api/proxy' }).proxyPrefix).toBe('/api/proxy');
  });
});

describe('SVC_STORAGE', () => {
  it('takes memory, files, or nothing (the embedded storage)', () => {
    for (const ok of [undefined, '', 'memory:', 'fs:/tmp/x', 'file:///tmp/x']) expect(() => readConfig({ SVC_STORAGE: ok })).not.toThrow();
  });

  it('gives the embedded storage its ledger sync interval: 100 ms unless SVC_LEDGER_SYNC_MS says otherwise, 0 for a sync at each write', () => {
    expect(readConfig({}).storage).toEqual({ kind: 'fs', dir: null, ledgerSyncMs: 100 });
    expect(readConfig({ SVC_STORAGE: 'fs:/srv/x', SVC_LEDGER_SYNC_MS: '0' }).storage).toEqual({ kind: 'fs', dir: '/srv/x', ledgerSyncMs: 0 });
    expect(readConfig({ SVC_STORAGE: 'memory:', SVC_LEDGER_SYNC_MS: '5' }).storage).toEqual({ kind: 'memory' });
  });

  it('takes redis://host:port/db with SVC_SECRET, and refuses it without one or malformed, never echoing its password', () => {
    expect(readConfig({ SVC_STORAGE: 'redis://127.0.0.1:6379/3', SVC_SECRET: 's' }).storage).toEqual({ kind: 'redis', url: 'redis://127.0.0.1:6379/3' });
    expect(() => readConfig({ SVC_STORAGE: 'redis://svc:hunter2@127.0.0.1:6379' })).toThrow(/^SVC_STORAGE=redis:\/\/… needs SVC_SECRET/);
    expect(() => readConfig({ SVC_STORAGE: 'redis://svc:hunter2@127.0.0.1:6379/db', SVC_SECRET: 's' })).toThrow(
      /^SVC_STORAGE=redis:\/\/…@127\.0\.0\.1:6379\/db: expected redis:\/\//,
    );
    expect(() => readConfig({ SVC_STORAGE: 'redis://svc:hunter2@127.0.0.1:6379/db', SVC_SECRET: 's' })).not.toThrow(/hunter2/);
  });

  it('is named in the start banner as what it is, a Redis password hidden', () => {
    expect(describeStorage(readConfig({ SVC_STORAGE: 'redis://svc:hunter2@127.0.0.1:6379/3', SVC_SECRET: 's' }))).toBe(
      'shared on Redis at redis://…@127.0.0.1:6379/3',
    );
    expect(describeStorage(readConfig({ SVC_STORAGE: 'memory:' }))).toBe('in memory (nothing survives a restart)');
    expect(describeStorage(readConfig({ SVC_DATA_DIR: '/var/lib/svc' }))).toBe('embedded storage in /var/lib/svc');
    expect(describeStorage(readConfig({ SVC_STORAGE: 'fs:/srv/svc-state', SVC_DATA_DIR: '/var/lib/svc' }))).toBe('embedded storage in /srv/svc-state');
    expect(() => readConfig({ SVC_STORAGE: 'postgres://db' })).toThrow(ConfigError);
  });
});

it('npm start stops on a bad setting with that sentence and exit code 2, before building anything', async ({ signal }) => {
  const root = join(import.meta.dirname, '../..');
  const r = await ranToExit(process.execPath, [join(root, 'bin/start.js')], {
    cwd: root,
    signal,
    env: { ...process.env, PORT: 'eighty', SVC_DIST_DIR: '/nonexistent' },
  });
  expect(r.status).toBe(2);
  expect(r.stderr.trim()).toBe('svc: PORT=eighty: expected a whole number from 0 to 65535');
});

it('npm start on a Redis nobody answers at stops with a sentence naming it and exit code 1, password hidden', async ({ signal }) => {
  const root = join(import.meta.dirname, '../..');
  const r = await ranToExit(process.execPath, [join(root, 'bin/start.js')], {
    cwd: root,
    signal,
    env: { ...process.env, SVC_STORAGE: 'redis://svc:hunter2@127.0.0.1:1/0', SVC_SECRET: 's', SVC_DIST_DIR: '/nonexistent' },
  });
  expect(r.status).toBe(1);
  expect(r.stderr.trim()).toMatch(/^svc: SVC_STORAGE=redis:\/\/…@127\.0\.0\.1:1\/0: Redis does not answer \(connect ECONNREFUSED 127\.0\.0\.1:1\)$/);
});

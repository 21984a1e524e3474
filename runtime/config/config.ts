// The runtime's settings from the environment (README's configuration table lists them all), checked
// once at start: a value that is not what its setting takes stops the start with a sentence naming
// it, rather than turning into NaN somewhere later. Per-provider names (auth.env keys, SVC_BASE_*)
// are read from `env` where they are used, since the catalog decides them.
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  proxyPrefix: string;
  distDir: string;
  dataDir: string;
  /** SVC_STORAGE, parsed */
  storage: StorageSpec;
  /** where `npm run demo` serves the provider sandbox */
  sandboxPort: number;
  adminToken: string | null;
  secret: string | null;
  judgeUrl: string | null;
  judgeKey: string | null;
  judgeModel: string | null;
  judgeTimeoutMs: number;
  findRatePerMinute: number;
  /** take the client address from X-Forwarded-For */
  trustProxy: boolean;
  maxBodyBytes: number;
  /** longest wait for one provider attempt */
  attemptTimeoutMs: number;
  /** largest provider answer read */
  maxAnswerBytes: number;
  /** cap on async poll intervals; null: the provider's own */
  pollIntervalMaxMs: number | null;
  /** on SIGTERM, the longest wait for calls in flight before the process exits */
  drainMs: number;
  env: Record<string, string | undefined>;
}

export class ConfigError extends Error {}

/** the default for SVC_MAX_ANSWER_BYTES: far above any single record, far below trouble */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/**
 * The embedded ledger's default SVC_LEDGER_SYNC_MS: an acknowledged charge is in the kernel at once
 * (it survives a crash of svc) and flushed to the disk within this many milliseconds (docs/teams-and-billing.md).
 */
export const LEDGER_SYNC_MS = 100;

/** `ledgerSyncMs`: SVC_LEDGER_SYNC_MS (LEDGER_SYNC_MS when absent); 0 flushes each write before it is acknowledged */
export type StorageSpec = { kind: 'memory' } | { kind: 'fs'; dir: string | null; ledgerSyncMs?: number } | { kind: 'redis'; url: string };

/** What SVC_STORAGE names: in-process memory, files under a directory (null: SVC_DATA_DIR), or Redis. */
export function parseStorage(spec: string | null): StorageSpec {
  const s = spec?.trim() || '';
  if (s === 'memory:' || s === 'memory') return { kind: 'memory' };
  if (s === '' || s.startsWith('fs:') || s.startsWith('file:')) return { kind: 'fs', dir: s.replace(/^(fs|file):(\/\/)?/, '') || null };
  if (/^rediss?:\/\//.test(s)) {
    let url: URL | null = null;
    try {
      url = new URL(s);
    } catch {
      /* the sentence below */
    }
    const db = url?.pathname.replace(/^\//, '') ?? '';
    if (!url || !url.hostname || !/^\d{0,2}$/.test(db))
      throw new ConfigError(
        `SVC_STORAGE=${s.replace(/\/\/[^@/]*@/, '//…@')}: expected redis://[user:password@]host[:port][/db], such as redis://127.0.0.1:6379/0`,
      );
    return { kind: 'redis', url: s };
  }
  throw new ConfigError(`SVC_STORAGE=${s}: unknown backend; use memory:, fs:<dir>, redis://host:port/db, or leave it unset for the embedded storage`);
}

/** Where state lives, in words for a start banner; a Redis password is never shown. */
export function describeStorage(config: Pick<Config, 'storage' | 'dataDir'>): string {
  const s = config.storage;
  if (s.kind === 'memory') return 'in memory (nothing survives a restart)';
  if (s.kind === 'fs') return `embedded storage in ${s.dir ?? config.dataDir}`; // fs:<dir> wins over SVC_DATA_DIR, as in the backend
  return `shared on Redis at ${s.url.replace(/\/\/[^@/]*@/, '//…@')}`;
}

type Env = Record<string, string | undefined>;

const given = (env: Env, name: string): string | null => {
  const raw = env[name]?.trim();
  return raw ? raw : null;
};

/** a whole number in [min, max] from `name`, or `fallback` when it is unset */
function whole<T extends number | null>(env: Env, name: string, fallback: T, min: number, max = Number.MAX_SAFE_INTEGER): number | T {
  const raw = given(env, name);
  if (raw === null) return fallback;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) throw new ConfigError(`${name}=${raw}: expected a whole number from ${min} to ${max}`);
  return n;
}

/** an absolute http(s) URL without a trailing slash */
function httpUrl(env: Env, name: string, fallback: string): string {
  const raw = given(env, name);
  if (raw === null) return fallback;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // not a URL at all: the same sentence as a URL of another scheme
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new ConfigError(`${name}=${raw}: expected an http:// or https:// URL, such as https://svc.example.com`);
  // paths are appended to it (/meta's proxy_url, call templates): a query or fragment would swallow
  // them, and a user:password would be shown to anyone reading /meta
  if (url.username || url.password || url.search || url.hash) {
    if (url.password) url.password = '***';
    throw new ConfigError(`${name}=${url.href}: expected a base URL without user:password@, ?query or #fragment, such as https://svc.example.com`);
  }
  return raw.replace(/\/+$/, '');
}

/** the proxy's mount path: `/` + segments of URL-safe characters, never the root the own routes share */
function proxyPrefix(env: Env): string {
  const raw = given(env, 'SVC_PROXY_PREFIX');
  if (raw === null) return '/proxy';
  const path = raw.replace(/^\/+|\/+$/g, '');
  if (!/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(path)) throw new ConfigError(`SVC_PROXY_PREFIX=${raw}: expected a path below the root, such as /proxy`);
  return `/${path}`;
}

function flag(env: Env, name: string): boolean {
  const raw = given(env, name);
  if (raw === null || raw === '0') return false;
  if (raw === '1') return true;
  throw new ConfigError(`${name}=${raw}: expected 1 (on) or 0 (off)`);
}

export function readConfig(env: Env = process.env): Config {
  const port = whole(env, 'PORT', 8787, 0, 65535);
  const parsed = parseStorage(env.SVC_STORAGE ?? null); // a backend no one can open stops the start here
  const ledgerSyncMs = whole(env, 'SVC_LEDGER_SYNC_MS', LEDGER_SYNC_MS, 0, 60_000);
  const storage = parsed.kind === 'fs' ? { ...parsed, ledgerSyncMs } : parsed;
  // each instance would otherwise seal own keys with a secret of its own, which the others cannot open
  if (storage.kind === 'redis' && !env.SVC_SECRET)
    throw new ConfigError("SVC_STORAGE=redis://… needs SVC_SECRET, the same on every instance, to seal and open the teams' own provider keys");
  return {
    port,
    host: given(env, 'HOST') ?? '127.0.0.1',
    publicUrl: httpUrl(env, 'SVC_PUBLIC_URL', `http://localhost:${port}`),
    proxyPrefix: proxyPrefix(env),
    distDir: given(env, 'SVC_DIST_DIR') ?? 'dist',
    dataDir: given(env, 'SVC_DATA_DIR') ?? '.data',
    storage,
    sandboxPort: whole(env, 'SVC_SANDBOX_PORT', 8788, 0, 65535),
    adminToken: env.SVC_ADMIN_TOKEN || null,
    secret: env.SVC_SECRET || null,
    judgeUrl: env.SVC_JUDGE_URL || null,
    judgeKey: env.SVC_JUDGE_KEY || null,
    judgeModel: env.SVC_JUDGE_MODEL || null,
    judgeTimeoutMs: whole(env, 'SVC_JUDGE_TIMEOUT_MS', 8000, 1),
    findRatePerMinute: whole(env, 'SVC_FIND_RATE_PER_MINUTE', 30, 1),
    trustProxy: flag(env, 'SVC_TRUST_PROXY'),
    maxBodyBytes: whole(env, 'SVC_MAX_BODY_BYTES', 64 * 1024, 1),
    attemptTimeoutMs: whole(env, 'SVC_ATTEMPT_TIMEOUT_MS', 15_000, 1),
    maxAnswerBytes: whole(env, 'SVC_MAX_ANSWER_BYTES', MAX_ANSWER_BYTES, 1),
    pollIntervalMaxMs: whole(env, 'SVC_POLL_INTERVAL_MAX_MS', null, 1),
    drainMs: whole(env, 'SVC_DRAIN_MS', 20_000, 0),
    env: { ...env }, // a copy: process.env is read through the C++ environment on every access (about 170 ns each)
  };
}

/** readConfig for the entry points: a bad setting ends the process with its sentence (exit code 2) */
export function readConfigOrExit(env: Env = process.env): Config {
  try {
    return readConfig(env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`svc: ${e.message}\n`);
    process.exit(2);
  }
}

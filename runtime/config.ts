// The runtime's settings from the environment (README's configuration table lists them all). Router
// tuning (SVC_ATTEMPT_TIMEOUT_MS, …), the judge's key and model, HOST and per-provider names
// (auth.env, SVC_BASE_*) are read from `env` where they are used.
export interface Config {
  port: number;
  publicUrl: string;
  proxyPrefix: string;
  distDir: string;
  dataDir: string;
  storage: string | null;
  adminToken: string | null;
  secret: string | null;
  judgeUrl: string | null;
  judgeTimeoutMs: number;
  findRatePerMinute: number;
  maxBodyBytes: number;
  env: Record<string, string | undefined>;
}

export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  const port = Number(env.PORT ?? 8787);
  const prefix = env.SVC_PROXY_PREFIX ?? '/proxy';
  return {
    port,
    publicUrl: (env.SVC_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    proxyPrefix: `/${prefix.replace(/^\/+|\/+$/g, '')}`,
    distDir: env.SVC_DIST_DIR ?? 'dist',
    dataDir: env.SVC_DATA_DIR ?? '.data',
    storage: env.SVC_STORAGE ?? null,
    adminToken: env.SVC_ADMIN_TOKEN || null,
    secret: env.SVC_SECRET || null,
    judgeUrl: env.SVC_JUDGE_URL || null,
    judgeTimeoutMs: Number(env.SVC_JUDGE_TIMEOUT_MS ?? 8000),
    findRatePerMinute: Number(env.SVC_FIND_RATE_PER_MINUTE ?? 30),
    maxBodyBytes: Number(env.SVC_MAX_BODY_BYTES ?? 64 * 1024),
    env,
  };
}

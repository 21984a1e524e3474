// A runtime wired to a real sandbox on loopback, with a funded team: the setup of every routed test.
import { createSandbox, loadSandboxCatalog, sandboxKeys, startSandbox, type RunningSandbox, type SandboxApp } from '../../sandbox/index.ts';
import { sandboxEnv } from '../../sandbox/svc-env.ts';
import { afterAll, beforeAll } from 'vitest';
import { SUITE_DOOR, testRuntime, type Door } from './server.ts';
import type { AppContext } from '../../runtime/context/context.ts';

export const DOORS: Door[] = ['node', 'h3'];

type Call = (path: string, body?: unknown, headers?: Record<string, string>, token?: string) => Promise<{ status: number; headers: Headers; body: any }>;

export interface RoutedWorld {
  url: string;
  ctx: AppContext;
  sandbox: SandboxApp;
  running: RunningSandbox;
  keys: Record<string, string>;
  token: string;
  teamId: number;
  /** through this run's door (SUITE_DOOR) */
  call: Call;
  /** through the given door */
  through(door: Door): Call;
  billing(): Promise<Record<string, { calls: number; billed_micro: number }>>;
  close(): Promise<void>;
}

export async function routedWorld(
  distDir: string,
  opts: { creditMicro?: number; env?: Record<string, string>; faultRate?: number; tokenLifeS?: number } = {},
): Promise<RoutedWorld> {
  const runtime = loadSandboxCatalog(distDir);
  const { keys } = sandboxKeys(runtime, {});
  const sandbox = createSandbox(runtime, { keys, stallMs: 5_000, faultRate: opts.faultRate, tokenLifeS: opts.tokenLifeS });
  const running = await startSandbox(sandbox, 0);
  const { ctx, app, listen } = await testRuntime(distDir, {
    ...sandboxEnv(runtime, running.url, keys),
    SVC_POLL_INTERVAL_MAX_MS: '20',
    SVC_ATTEMPT_TIMEOUT_MS: '2000',
    ...opts.env,
  });
  const server = await listen(0);
  const { team, token } = (await ctx.state.createTeam('routed test team', opts.creditMicro ?? 10_000_000))!;
  const through =
    (door: Door): Call =>
    async (path, body, headers = {}, tok = token) => {
      const init = {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'x-svc-token': tok, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      };
      const r = door === 'h3' ? await app.fetch(new Request(server.url + path, init)) : await fetch(server.url + path, init);
      const text = await r.text();
      return { status: r.status, headers: r.headers, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
    };
  return {
    url: server.url,
    ctx,
    sandbox,
    running,
    keys,
    token,
    teamId: team.id,
    call: through(SUITE_DOOR),
    through,
    billing: async () => (await fetch(`${running.url}/_sandbox/billing`)).json() as Promise<Record<string, { calls: number; billed_micro: number }>>,
    close: async () => {
      await server.close();
      await running.close();
    },
  };
}

/** A world for the whole suite: made before its first test (handed to `made`), closed after its last. */
export function routedWorldPerSuite(distDir: string, made: (w: RoutedWorld) => void): void {
  let w: RoutedWorld | undefined;
  beforeAll(async () => {
    w = await routedWorld(distDir);
    made(w);
  }, 60_000);
  afterAll(() => w?.close());
}

/** Every charge row of the world's team, read page by page through GET /teams/me/ledger. */
export async function ledgerCharges(w: RoutedWorld): Promise<Array<{ endpoint_id: string; amount_micro: number }>> {
  const all: Array<{ kind: string; endpoint_id: string; amount_micro: number }> = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const page = await w.call(`/teams/me/ledger${cursor ? `?cursor=${cursor}` : ''}`);
    all.push(...page.body.entries);
    cursor = page.body.next_cursor;
  }
  return all.filter((e) => e.kind === 'charge');
}

/**
 * A POST whose client leaves after `ms` (its connection closes, as when an HTTP client times out):
 * resolves once the client has given up; what svc did meanwhile is read from the sandbox and the ledger.
 */
export async function postThenLeave(url: string, body: unknown, headers: Record<string, string>, ms: number): Promise<void> {
  const left = new AbortController();
  const sent = fetch(url, { method: 'POST', signal: left.signal, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  setTimeout(() => left.abort(), ms);
  await sent.then(
    () => {
      throw new Error(`${url} answered before its client left`);
    },
    (e: unknown) => {
      if ((e as Error).name !== 'AbortError') throw e;
    },
  );
}

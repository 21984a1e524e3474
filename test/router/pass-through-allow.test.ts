// Every pass-through path of the real build asked with a method it does not take: a 405 whose Allow
// names exactly the methods the catalog declares at that path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_DIST } from '../helpers/paths.ts';
import { servedRuntime } from '../helpers/server.ts';
import { loadRuntime } from '../../runtime/catalog/dist.ts';
import { compileTemplate, matchesTemplate } from '../../language/paths.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
let svc: Awaited<ReturnType<typeof servedRuntime>>;
let token = '';

beforeAll(async () => {
  svc = await servedRuntime(REAL_DIST, { SVC_ADMIN_TOKEN: 'allow-admin' });
  const res = await svc.fetch('/admin/teams', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-svc-admin': 'allow-admin' },
    body: JSON.stringify({ name: 'Allow', credit_usd: 1 }),
  });
  token = ((await res.json()) as { token: string }).token;
});
afterAll(async () => {
  await svc.close();
});

describe('405 on pass-through paths', () => {
  it('carries Allow with the declared methods on every path of the real build', async () => {
    const ops = Object.values(loadRuntime(REAL_DIST).operations);
    const paths = new Map<string, { provider: string; path: string; methods: Set<string> }>();
    for (const op of ops) {
      const path = op.path.replace(/\{[a-zA-Z0-9_]+\}/g, 'x1');
      const key = `${op.provider} ${path}`;
      if (paths.has(key)) continue;
      // every operation of the provider this concrete path reaches
      const methods = new Set(ops.filter((o) => o.provider === op.provider && matchesTemplate(compileTemplate(o.path), path)).map((o) => o.method));
      paths.set(key, { provider: op.provider, path, methods });
    }
    const lacking: string[] = [];
    let asked = 0;
    for (const { provider, path, methods } of paths.values()) {
      const wrong = METHODS.find((m) => !methods.has(m))!;
      const res = await svc.fetch(`/proxy/${provider}${path}`, {
        method: wrong,
        headers: { 'x-svc-token': token, ...(wrong === 'GET' || wrong === 'DELETE' ? {} : { 'content-type': 'application/json' }) },
        body: wrong === 'GET' || wrong === 'DELETE' ? undefined : '{}',
      });
      await res.arrayBuffer();
      if (res.status !== 405) {
        lacking.push(`${wrong} ${provider}${path}: ${res.status}`);
        continue;
      }
      asked++;
      const allow = res.headers.get('allow');
      if (allow !== [...methods].sort().join(', ')) lacking.push(`${wrong} ${provider}${path}: Allow ${allow} for ${[...methods].join(',')}`);
    }
    expect(lacking).toEqual([]);
    expect(asked).toBeGreaterThan(200);
  }, 120_000);
});

// A server whose public URL has a path of its own (https://api.example.test/data behind a proxy that
// strips it) and another proxy prefix: `svc call` and `svc batch` reach the server at SVC_URL and
// call the proxy at /meta's proxy_prefix there, not at the public URL's path.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { svcCli } from '../helpers/cli.ts';

let w: RoutedWorld;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), 'svc-public-path-'));
beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST, { env: { SVC_PUBLIC_URL: 'https://api.example.test/data', SVC_PROXY_PREFIX: '/calls' } });
  env = { SVC_URL: w.url, SVC_TOKEN: w.token };
});
afterAll(async () => {
  await w?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a public URL with a path', () => {
  it('/meta gives the public proxy URL and the proxy path on this server', async () => {
    const meta = await (await fetch(`${w.url}/meta`)).json();
    expect(meta).toMatchObject({ proxy_url: 'https://api.example.test/data/calls', proxy_prefix: '/calls' });
  });

  it('svc call reaches the routed capability at SVC_URL + the proxy path', async () => {
    const r = await svcCli(['call', 'people.email.verify', 'email=jane.doe@stripe.com', '--json'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)._svc.served_by).toMatch(/people\.email\.verify$/);
  });

  it('svc batch finds the capability and runs the list there', async () => {
    writeFileSync(join(dir, 'in.ndjson'), `${JSON.stringify({ email: 'path-a@acme.com' })}\n${JSON.stringify({ email: 'path-b@acme.com' })}\n`);
    const out = join(dir, 'out.ndjson');
    const r = await svcCli(['batch', 'people.email.verify', join(dir, 'in.ndjson'), '-o', out], env);
    expect(r.stderr).toMatch(/^rows 2\/2\s+hits 2/);
    expect(r.code).toBe(0);
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((row) => row.email)).toEqual(['path-a@acme.com', 'path-b@acme.com']);
    expect(rows.every((row) => String(row.served_by).endsWith('people.email.verify'))).toBe(true);
  });
});

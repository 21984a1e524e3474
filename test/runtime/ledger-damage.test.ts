// A team whose ledger file is damaged (not by a crash: a crash tears only the last line) is refused
// with a 503 and a sentence on every call that reads or moves its balance; other teams go on.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createState } from '../../runtime/state/index.ts';
import { LEDGER_DIR } from '../../runtime/state/backend.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { appContext, serve } from '../helpers/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-damage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('answers 503 with a sentence for the damaged team only, and logs where the damage is', async () => {
  const first = await createState({ storage: { kind: 'fs' as const, dir: null }, dataDir: dir, secret: 'damage-secret' });
  const hurt = (await first.createTeam('Hurt', 1_000_000))!;
  await first.charge(hurt.team.id, 10, { endpoint_id: 'e' });
  const fine = (await first.createTeam('Fine', 1_000_000))!;
  await first.close();
  const file = join(dir, LEDGER_DIR, `team-${hurt.team.id}.jsonl`);
  writeFileSync(file, readFileSync(file, 'utf8').replace('"id"', '"xx"')); // the first of two lines

  // a platform key, so the routed call gets as far as the balance check (no provider is reached)
  const ctx = await appContext(FIXTURE_DIST, {
    SVC_STORAGE: `fs:${dir}`,
    SVC_SECRET: 'damage-secret',
    SVC_KEY_SEARCHCO: 'k',
    SVC_BASE_SEARCHCO: 'http://127.0.0.1:9',
  });
  const server = await serve(ctx);
  try {
    const as = (token: string, path: string, body?: object) =>
      fetch(`${server.url}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { 'x-svc-token': token, 'content-type': 'application/json' },
        body: body && JSON.stringify(body),
      });
    for (const r of [await as(hurt.token, '/teams/me'), await as(hurt.token, '/proxy/google.serp.organic', { q: 'coffee' })]) {
      expect(r.status).toBe(503);
      expect((await r.json()).detail).toMatch(/ledger cannot be read safely.*nothing was charged/);
    }
    expect((await as(fine.token, '/teams/me')).status).toBe(200);
  } finally {
    await server.close();
  }
});

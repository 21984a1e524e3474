// A data directory where team 'Hurt' has a damaged ledger file (not by a crash: its first of two
// lines no longer reads as an entry) and team 'Fine' has not, served by a runtime with a platform key
// for searchco, so a routed call gets as far as the balance (no provider is reached).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createState } from '../../runtime/state/index.ts';
import { LEDGER_DIR } from '../../runtime/state/backend.ts';
import { FIXTURE_DIST } from './paths.ts';
import { appContext, serve } from './server.ts';

export interface DamagedWorld {
  url: string;
  hurt: { token: string };
  fine: { token: string };
  close(): Promise<void>;
}

export async function damagedLedger(): Promise<DamagedWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-damage-'));
  const first = await createState({ storage: { kind: 'fs' as const, dir: null }, dataDir: dir, secret: 'damage-secret' });
  const hurt = (await first.createTeam('Hurt', 1_000_000))!;
  await first.charge(hurt.team.id, 10, { endpoint_id: 'e' });
  const fine = (await first.createTeam('Fine', 1_000_000))!;
  await first.close();
  const file = join(dir, LEDGER_DIR, `team-${hurt.team.id}.jsonl`);
  writeFileSync(file, readFileSync(file, 'utf8').replace('"id"', '"xx"'));
  const ctx = await appContext(FIXTURE_DIST, {
    SVC_STORAGE: `fs:${dir}`,
    SVC_SECRET: 'damage-secret',
    SVC_KEY_SEARCHCO: 'k',
    SVC_BASE_SEARCHCO: 'http://127.0.0.1:9',
  });
  const server = await serve(ctx);
  return {
    url: server.url,
    hurt,
    fine,
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

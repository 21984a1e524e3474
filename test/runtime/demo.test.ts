// `npm run demo` from the outside: it prints a token and three commands, and each works as pasted.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_DIST, ROOT } from '../helpers/paths.ts';

let child: ChildProcess;
let out = '';
const port = 18000 + Math.floor(Math.random() * 2000);

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', 'runtime/demo.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), SVC_SANDBOX_PORT: String(port + 1), SVC_STORAGE: 'memory:', SVC_DIST_DIR: REAL_DIST },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  const t0 = Date.now();
  while (!/^curl .*Dry-Run/m.test(out)) {
    if (Date.now() - t0 > 60_000) throw new Error(`demo did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 70_000);
afterAll(() => { child.kill('SIGTERM'); });

describe('npm run demo', () => {
  it('prints a token on a line of its own', () => {
    expect(out).toMatch(/^token: svc_[A-Za-z0-9]{32}$/m);
  });

  it('prints three curl commands that work as pasted', () => {
    const commands = out.split('\n').filter((l) => l.startsWith('curl '));
    expect(commands).toHaveLength(3);
    const [verify, enrich, dry] = commands.map((c) => JSON.parse(execFileSync('bash', ['-c', c], { encoding: 'utf8' })));
    expect(verify._svc.served_by).toMatch(/people\.email\.verify$/);
    expect(verify.output.status).toBe('deliverable');
    expect(enrich._svc.tried[0].outcome).toBe('miss');
    expect(enrich._svc.served_by).toMatch(/people\.enrich$/);
    expect(dry.plan.length).toBeGreaterThan(4);
    expect(dry.worst_cost_micro).toBeGreaterThan(0);
  });
});

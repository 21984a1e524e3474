// `npm run build` as the README shows it: --only validates one provider and writes nothing; a
// broken provider file is one file:line error, never a stack trace. The build's command runs in this
// process; one test runs `npm run build` itself: --check writes and compiles nothing, and a pipe
// gets no colour codes.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCli } from '../helpers/cli.ts';
import { FIXTURE_SRC, ROOT } from '../helpers/paths.ts';

const run = promisify(execFile);

const tmp = mkdtempSync(join(tmpdir(), 'svc-build-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function copyFixture(name: string): string {
  const src = join(tmp, name);
  cpSync(FIXTURE_SRC, src, { recursive: true });
  return src;
}

async function build(...args: string[]): Promise<{ status: number; stderr: string; stdout: string }> {
  const r = await buildCli(args);
  return { status: r.code, stderr: r.stderr, stdout: r.stdout };
}

/** every file under `dir` with its size and modification time ([] when it does not exist) */
function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((f) => {
      const st = statSync(join(dir, f));
      return `${f} ${st.size} ${st.mtimeMs}`;
    });
}

describe('npm run build', () => {
  it('--only validates one provider and writes nothing', async () => {
    const out = join(tmp, 'only-dist', 'catalog');
    const r = await build('--only', 'zerobounce', '--src', FIXTURE_SRC, '--out', out);
    expect(r.stderr).toContain('build: valid (1 providers');
    expect(r.stderr).toContain('nothing written');
    expect(r.status).toBe(0);
    expect(existsSync(join(tmp, 'only-dist'))).toBe(false);
  });

  // the one test of the build as a process: npm's script, bin/build.js, its flags and exit code
  it('`npm run build -- --check` writes and compiles nothing, and prints no colour codes into a pipe', async () => {
    const npm = (...args: string[]) => run('npm', ['run', '--silent', 'build', '--', ...args], { cwd: ROOT, env: { PATH: process.env.PATH } });
    const outputs = () => [join(ROOT, 'dist'), join(ROOT, 'dist-server')].map(files);
    const before = outputs();
    const check = await npm('--check', '--src', FIXTURE_SRC); // the default --out: dist/catalog
    expect(check.stderr).toMatch(/^build: valid \(4 providers, \d+ operations\); nothing written$/m);
    expect(outputs()).toEqual(before); // no catalog, dashboard or compiled server written or removed
    const help = await npm('--help');
    expect(help.stdout + help.stderr).toContain('--only');
    expect(help.stdout + help.stderr).not.toContain('\x1b[');
  }, 60_000);

  it('--only of a provider that has no file fails with a sentence', async () => {
    const r = await build('--only', 'nosuchprovider', '--src', FIXTURE_SRC);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--only nosuchprovider: 1 of these is not a provider file');
  });

  it('an empty provider file is one file:line error', async () => {
    const src = copyFixture('empty');
    writeFileSync(join(src, 'providers', 'zerobounce.yaml'), '');
    const r = await build('--check', '--src', src);
    expect(r.status).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => !l.startsWith('build: ') && l !== '');
    expect(lines).toEqual([`${join(src, 'providers', 'zerobounce.yaml')}:1:1 the file is empty`, 'build failed: 1 error(s)']);
  });

  it('a file whose service is not its name is one error, not one per operation', async () => {
    const src = copyFixture('misnamed');
    const path = join(src, 'providers', 'searchco.yaml');
    writeFileSync(path, readFileSync(path, 'utf8').replace('service: searchco', 'service: searchcorp'));
    const r = await build('--check', '--src', src);
    expect(r.status).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => !l.startsWith('build: ') && l !== '');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/searchco\.yaml:\d+:\d+ \[searchcorp\] service 'searchcorp' must match its file name 'searchco.yaml'$/);
  });
});

// `npm run build` as the README shows it, in a real process: --only validates one provider and
// writes nothing; a broken provider file is one file:line error, never a stack trace.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_SRC, ROOT } from '../helpers/paths.ts';

const tmp = mkdtempSync(join(tmpdir(), 'svc-build-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function copyFixture(name: string): string {
  const src = join(tmp, name);
  cpSync(FIXTURE_SRC, src, { recursive: true });
  return src;
}

function build(...args: string[]): { status: number | null; stderr: string; stdout: string } {
  const r = spawnSync('npm', ['run', '--silent', 'build', '--', ...args], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH } });
  return { status: r.status, stderr: r.stderr, stdout: r.stdout };
}

describe('npm run build', () => {
  it('--only validates one provider and writes nothing', () => {
    const out = join(tmp, 'only-dist', 'catalog');
    const r = build('--only', 'zerobounce', '--src', FIXTURE_SRC, '--out', out);
    expect(r.stderr).toContain('build: valid (1 providers');
    expect(r.stderr).toContain('nothing written');
    expect(r.status).toBe(0);
    expect(existsSync(join(tmp, 'only-dist'))).toBe(false);
  }, 60_000);

  it('prints no colour codes into a pipe', () => {
    const r = build('--help');
    expect(r.stdout + r.stderr).toContain('--only');
    expect(r.stdout + r.stderr).not.toContain('\x1b[');
  }, 60_000);

  it('--only of a provider that has no file fails with a sentence', () => {
    const r = build('--only', 'nosuchprovider', '--src', FIXTURE_SRC);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--only nosuchprovider: 1 of these is not a provider file');
  }, 60_000);

  it('an empty provider file is one file:line error', () => {
    const src = copyFixture('empty');
    writeFileSync(join(src, 'providers', 'zerobounce.yaml'), '');
    const r = build('--check', '--src', src);
    expect(r.status).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => !l.startsWith('build: ') && l !== '');
    expect(lines).toEqual([`${join(src, 'providers', 'zerobounce.yaml')}:1:1 the file is empty`, 'build failed: 1 error(s)']);
  }, 60_000);

  it('a file whose service is not its name is one error, not one per operation', () => {
    const src = copyFixture('misnamed');
    const path = join(src, 'providers', 'searchco.yaml');
    writeFileSync(path, readFileSync(path, 'utf8').replace('service: searchco', 'service: searchcorp'));
    const r = build('--check', '--src', src);
    expect(r.status).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => !l.startsWith('build: ') && l !== '');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/searchco\.yaml:\d+:\d+ \[searchcorp\] service 'searchcorp' must match its file name 'searchco.yaml'$/);
  }, 60_000);
});

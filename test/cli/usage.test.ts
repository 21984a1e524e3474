// What the CLI can know without asking: bad flags, unknown fields and kinds are usage errors (exit 2)
// before any request; hints name svc commands, not HTTP paths; a refused tool lists one problem a
// line; the usage has no trailing spaces and `svc --help` loads no runtime module. Run in process.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerCharges, routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { FIXTURE_DIST, ROOT } from '../helpers/paths.ts';
import { svcCli } from '../helpers/cli.ts';
import { emailTool } from '../hub/tool-files.ts';

/** nothing listens here: a command that sent anything would exit 6 (unreachable), not 2 */
const NOWHERE = { SVC_URL: 'http://127.0.0.1:9', SVC_TOKEN: 'svc_not_a_token' };

let w: RoutedWorld;
let env: Record<string, string>;
const root = mkdtempSync(join(tmpdir(), 'svc-cli-usage-'));
beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST, { creditMicro: 100_000_000 });
  env = { SVC_URL: w.url, SVC_TOKEN: w.token };
});
afterAll(async () => {
  await w?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('flags and words checked before any request', () => {
  it('--limit that is not a whole number from 1 to 100 names the flag (exit 2)', async () => {
    expect(await svcCli(['search', 'verify', 'email', '--limit', 'abc'], NOWHERE)).toEqual({
      code: 2,
      stdout: '',
      stderr: "svc: --limit takes a whole number from 1 to 100; 'abc' is not one.\n",
    });
    expect(await svcCli(['search', 'email', '--limit', '0'], NOWHERE)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^svc: --limit /) });
    expect(await svcCli(['search', 'email', '--limit', '500'], NOWHERE)).toMatchObject({ code: 2 });
  });

  it('--port names the flag, not the variable it sets', async () => {
    expect(await svcCli(['serve', '--port', 'eighty'], NOWHERE)).toEqual({
      code: 2,
      stdout: '',
      stderr: "svc: --port takes a whole number from 0 to 65535; 'eighty' is not one.\n",
    });
  });

  it('a feedback kind or a usefulness svc does not know is a usage error', async () => {
    expect(await svcCli(['feedback', 'praise', 'nice'], NOWHERE)).toEqual({
      code: 2,
      stdout: '',
      stderr: "svc: the kind is one of bug, wrong_data, missing, pricing, idea, other; 'praise' is not one (nothing was sent).\n",
    });
    expect(await svcCli(['review', 'svc.people.email.verify', 'usefull', 'it', 'found', 'them'], NOWHERE)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('did you mean useful?'),
    });
  });

  it('a field the capability does not take says which it meant, and nothing is called or charged', async () => {
    const before = (await ledgerCharges(w)).length;
    expect(await svcCli(['call', 'people.email.verify', 'emial=jane@acme.com'], env)).toEqual({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^svc: people\.email\.verify has no field 'emial'; did you mean email\? its fields are .*email/),
    });
    expect(await svcCli(['call', 'people.email.verify', 'email=a@b.co', 'email=c@d.co'], env)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'svc: email is given twice; give each field once.\n',
    });
    expect((await ledgerCharges(w)).length).toBe(before);
  });
});

describe('what the CLI says', () => {
  it('hints name svc commands, and an id is echoed as typed', async () => {
    expect(await svcCli(['show', 'nope.nothing'], env)).toMatchObject({ code: 4, stderr: "svc: No endpoint 'nope.nothing'; svc search WORDS finds one.\n" });
    expect((await svcCli(['show', '../../etc/passwd'], env)).stderr).toBe("svc: No endpoint '../../etc/passwd'; svc search WORDS finds one.\n");
  });

  it('a version left unchecked says to run svc hub check', async () => {
    const poor = await w.ctx.state.createTeam('usage poor maker', 0);
    const dir = join(root, 'usage-later-tool');
    mkdirSync(dir);
    for (const [file, text] of Object.entries(emailTool())) writeFileSync(join(dir, file), text);
    const r = await svcCli(['hub', 'publish', dir], { SVC_URL: w.url, SVC_TOKEN: poor!.token });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^reason\s+.*svc hub check usage-later-tool@1\.$/m);
    expect(r.stdout).not.toMatch(/POST \//);
  });

  it('a refused publish prints one problem a line', async () => {
    const dir = join(root, 'usage-bad-tool');
    mkdirSync(dir);
    const files = emailTool((f) => {
      (f.tool.steps as Array<{ with: Record<string, string> }>)[0].with = { domain: '{{input.nope}}', full_name: '{{input.gone}}' };
    });
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
    const r = await svcCli(['hub', 'publish', dir], env);
    expect(r.code).toBe(4);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^svc: the hub refused usage-bad-tool \(\d+ problems\):$/);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.slice(1).every((l) => /^ {2}\S.*: /.test(l))).toBe(true);
    expect(r.stderr).toMatch(/input\.nope/);
    expect(r.stderr).toMatch(/input\.gone/);
  });

  it('help lines end at their last word', async () => {
    for (const args of [['--help'], ['hub', '--help'], ['call', '--help']]) {
      const r = await svcCli(args, NOWHERE);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/USAGE/);
      expect(r.stdout.split('\n').filter((l) => /\s$/.test(l))).toEqual([]);
    }
  });

  it('svc --help loads no command module: its static imports reach nothing in runtime/, build/ (but plain output) or language/', () => {
    // the modules `node bin/svc.js --help` loads are cli/main.ts and what it imports statically;
    // every command's module is a dynamic import (cli/commands.ts) loaded only when it runs
    const seen = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^import\s+(?:type\s+)?(?:[^'"]*?from\s+)?'(\.[^']+)'/gm)) {
        if (/^import\s+type\b/.test(m[0])) continue;
        const target = resolve(dirname(file), m[1]);
        if (target.endsWith('.ts')) walk(target);
      }
    };
    walk(join(ROOT, 'cli', 'main.ts'));
    const loaded = [...seen].map((f) => f.slice(ROOT.length + 1)).sort();
    expect(loaded).toEqual([
      'build/plain-output.ts',
      'cli/commands.ts',
      'cli/fail.ts',
      'cli/flags.ts',
      'cli/hints.ts',
      'cli/main.ts',
      'cli/run.ts',
      'cli/terminal.ts',
    ]);
  });
});

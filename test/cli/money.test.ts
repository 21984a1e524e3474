// Every USD amount `svc` prints goes through one formatter (cli/print.ts `usd`): a dollar sign, at
// least two decimals, and more only where the micro-USD amount needs them ($0.10, $0.0049, $12.50,
// $1.00, $0.00, -$0.02). The rule alone, then the commands that print money, run in this process
// against a real server and the sandbox, with amounts chosen to need 0, 1, 2 and 4 decimals.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { svcCli } from '../helpers/cli.ts';
import { emailTool } from '../hub/tool-files.ts';
import { usd, usdOf } from '../../cli/print.ts';
import { Progress } from '../../cli/batch-progress.ts';

describe('usd: the one formatter', () => {
  it.each([
    [100_000, '$0.10'],
    [4_900, '$0.0049'],
    [12_500_000, '$12.50'],
    [1_000_000, '$1.00'],
    [0, '$0.00'],
    [500, '$0.0005'],
    [1, '$0.000001'],
    [123_456_789, '$123.456789'],
    [-20_000, '-$0.02'],
    [-1_000_000, '-$1.00'],
    [4_500.4, '$0.0045'], // an average of micro-USD figures: to the whole micro-USD
  ])('%s micro-USD prints %s', (micro, text) => {
    expect(usd(micro)).toBe(text);
  });

  it('a USD number from an answer (price_usd, cost.usd) prints as its micro-USD amount does', () => {
    expect([0.1, 0, 0.0005, 12.5, 0.07, 1].map(usdOf)).toEqual(['$0.10', '$0.00', '$0.0005', '$12.50', '$0.07', '$1.00']);
  });

  it('no amount prints as -', () => {
    expect([usd(null), usd(undefined), usdOf(null), usdOf(undefined)]).toEqual(['-', '-', '-', '-']);
  });
});

let w: RoutedWorld;
let env: Record<string, string>;
const root = mkdtempSync(join(tmpdir(), 'svc-cli-money-'));

beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST, { creditMicro: 100_000_000 });
  env = { SVC_URL: w.url, SVC_TOKEN: w.token };
  // a tool at $0.10 a run, which a price printed as it came ("0.1") would show with one decimal
  const dir = join(root, 'dime-tool');
  mkdirSync(dir);
  for (const [file, text] of Object.entries(
    emailTool((f) => {
      f.tool.price_usd = 0.1;
    }),
  ))
    writeFileSync(join(dir, file), text);
  expect((await svcCli(['hub', 'publish', dir], env)).code).toBe(0);
});
afterAll(async () => {
  await w?.close();
  rmSync(root, { recursive: true, force: true });
});

/** every amount in a command's output: `$` amounts, and amounts written with USD after them */
const amounts = (text: string) => ({
  dollars: [...text.matchAll(/-?\$\d[\d.]*/g)].map((m) => m[0].replace(/\.$/, '')),
  usdWords: [...text.matchAll(/\b\d[\d.]* USD\b/g)].map((m) => m[0]),
});
const RULE = /^-?\$\d+\.\d{2,6}$/;

describe('the commands that print money', { timeout: 120_000 }, () => {
  it('print every amount by the one rule, whole dollars and free operations included', async () => {
    // a team with exactly 1 USD, so its balance needs no decimal at all
    const whole = (await w.ctx.state.createTeam('cli money team', 1_000_000))!;
    const wholeEnv = { ...env, SVC_TOKEN: whole.token };
    const runs: Array<[string[], Record<string, string>]> = [
      [['me'], wholeEnv],
      [['search', 'usage'], env], // free operations: $0
      [['search', 'verify', 'email'], env],
      [['show', 'zerobounce.people.email.verify'], env],
      [['show', 'searchco.google.serp.organic.rows'], env], // $0.0005 a result row
      [['show', 'svc.people.email.verify'], env], // the tried order and its worst costs
      [['call', 'people.email.verify', 'email=jane.doe@stripe.com', '--dry-run'], env],
      [['call', 'people.email.verify', 'email=jane.doe@stripe.com'], wholeEnv],
      [['me', 'ledger'], wholeEnv],
      [['hub', 'list'], env],
      [['hub', 'list', '--mine'], env],
      [['hub', 'mcp'], env],
      [['hub', 'show', 'dime-tool'], env],
      [['hub', 'run', 'dime-tool', 'domain=acme.com', 'full_name=Jane Doe'], wholeEnv],
      [['me'], wholeEnv],
    ];
    const seen: string[] = [];
    for (const [args, e] of runs) {
      const r = await svcCli(args, e);
      expect(r.code, `svc ${args.join(' ')}: ${r.stderr}`).toBe(0);
      const { dollars, usdWords } = amounts(r.stdout + r.stderr);
      expect(
        dollars.filter((d) => !RULE.test(d)),
        `svc ${args.join(' ')}`,
      ).toEqual([]);
      expect(usdWords, `svc ${args.join(' ')}: amounts as '0.1 USD'`).toEqual([]);
      seen.push(...dollars);
    }
    // the amounts that needed care: whole dollars, a dime, nothing, and four decimals
    expect(seen).toEqual(expect.arrayContaining(['$1.00', '$0.10', '$0.00', '$0.0005']));
  });

  it('svc me says the balance and earnings so', async () => {
    const team = (await w.ctx.state.createTeam('cli money balance', 12_500_000))!;
    expect((await svcCli(['me'], { ...env, SVC_TOKEN: team.token })).stdout).toMatch(/^balance\s+\$12\.50\nearnings\s+\$0\.00\n/m);
  });

  it("svc batch's progress line says what it spent by the same rule", () => {
    const lines: string[] = [];
    const progress = new Progress(3, (t) => lines.push(t), false);
    progress.row(true, 100_000);
    progress.row(true, 50);
    progress.row(false, 0);
    progress.finish('');
    expect(lines[0]).toMatch(/^rows 3\/3 {2}hits 2 {2}spent \$0\.10005 {2}/);
    const none = new Progress(1, (t) => lines.push(t), false);
    none.row(false, 0);
    none.finish('');
    expect(lines[1]).toMatch(/ spent \$0\.00 {2}/);
  });
});

// What the CLI prints was often written by someone else (another team's hub tool, a review, a
// provider's answer), and a terminal obeys what it is sent: escape sequences, control and invisible
// formatting characters never reach it from a table or a line, and --json keeps every character as
// data, written as a \u escape where a terminal would act on it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonText, shown } from '../../cli/terminal.ts';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { svcCli } from '../helpers/cli.ts';
import { emailTool } from '../hub/tool-files.ts';

const HOSTILE = 'Red\u001b[31m tool\u001b[0m\u001b]0;owned\u0007 \u202Egnp.exe\u200B\u0000\u009b2J\u0007 done';
/** what a terminal could act on or hide */
const RAW = /[^\P{Cc}\n\t]|\p{Cf}/u;

describe('the text the CLI prints', () => {
  it('drops escape sequences whole and every control or invisible character but line breaks and tabs', () => {
    expect(shown(HOSTILE)).toBe('Red tool gnp.exe2J done');
    expect(shown('a\tb\nc é 🙂')).toBe('a\tb\nc é 🙂');
  });

  it('--json keeps the data exactly, with the characters a terminal would act on written as escapes', () => {
    const data = { name: HOSTILE, plain: 'é 🙂' };
    const text = jsonText(data);
    expect(text).not.toMatch(RAW);
    expect(JSON.parse(text)).toEqual(data);
  });
});

describe("another team's tool", () => {
  let w: RoutedWorld;
  let reader: Record<string, string>;
  beforeAll(async () => {
    w = await routedWorld(FIXTURE_DIST, { creditMicro: 100_000_000 });
    const files = emailTool((f) => {
      f.tool.name = `Email ${HOSTILE}`;
      f.tool.summary = `Summary ${HOSTILE}`;
    });
    const r = await fetch(`${w.url}/hub/tools`, {
      method: 'POST',
      headers: { 'x-svc-token': w.token, 'content-type': 'application/json' },
      body: JSON.stringify({ tool_id: 'hostile-tool', files }),
    });
    expect(r.status).toBe(201);
    reader = { SVC_URL: w.url, SVC_TOKEN: (await w.ctx.state.createTeam('reader', 1_000_000))!.token };
  });
  afterAll(() => w?.close());

  it.each([[['hub', 'list']], [['hub', 'show', 'hostile-tool']], [['search', 'verified work email']]])(
    'svc %j prints its words with nothing a terminal acts on',
    async (args) => {
      const r = await svcCli(args, reader);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Red tool');
      expect(r.stdout).not.toMatch(RAW);
      const json = await svcCli([...args, '--json'], reader);
      expect(json.stdout).not.toMatch(RAW);
      expect(json.stdout).toContain('\\u001b[31m');
    },
  );
});

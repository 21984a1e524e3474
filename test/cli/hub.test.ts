// `svc hub publish | check | list | show | run | retire` end to end: a folder of the four files
// published by one team, run by another, a miss, a refused input, a version whose check fails, a
// check run later once credit came, the maker's own list, and retirement.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routedWorld, type RoutedWorld } from '../helpers/routed.ts';
import { FIXTURE_DIST } from '../helpers/paths.ts';
import { svcCli } from '../helpers/cli.ts';
import { emailTool } from '../hub/tool-files.ts';

let w: RoutedWorld;
let maker: Record<string, string>;
let caller: Record<string, string>;
const root = mkdtempSync(join(tmpdir(), 'svc-cli-hub-'));

function toolDir(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(dir);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

beforeAll(async () => {
  w = await routedWorld(FIXTURE_DIST, { creditMicro: 100_000_000 });
  maker = { SVC_URL: w.url, SVC_TOKEN: w.token };
  caller = { SVC_URL: w.url, SVC_TOKEN: (await w.ctx.state.createTeam('cli caller', 100_000_000))!.token };
});
afterAll(async () => {
  await w?.close();
  rmSync(root, { recursive: true, force: true });
});

// each `svc` is a fresh node process; on a busy machine one takes seconds
describe('svc hub', { timeout: 240_000 }, () => {
  it('publishes a folder (the id is its name), shows it, runs it for another team, retires it', async () => {
    const dir = toolDir('cli-email-tool', emailTool());
    const published = await svcCli(['hub', 'publish', dir], maker);
    expect(published.code).toBe(0);
    expect(published.stdout).toMatch(/^tool\s+cli-email-tool@1\nstatus\s+live\ncheck\s+passed, cost \$[\d.]+\n$/);

    const shown = await svcCli(['hub', 'show', 'cli-email-tool'], caller);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^price\s+\$0\.05 a run$/m);
    expect(shown.stdout).toMatch(/^input\s+domain, full_name$/m);
    expect(shown.stdout).toMatch(/^VERSION\s+STATUS\s+CREATED\s+LIVE\s+NOTE\n1\s+live\s+\S+\s+20\d\d-/m);
    // the tool's page in the terminal: maker, worst cost, check, usage measured, schemas as tables, call templates
    expect(shown.stdout).toMatch(/^maker\s+routed test team \(routed-test-team\)$/m);
    expect(shown.stdout).toMatch(/^worst_steps\s+\$[\d.]+ \(a run costs at most \$[\d.]+\)$/m);
    expect(shown.stdout).toMatch(/^last_check\s+passed on 20\d\d-\S+, cost \$[\d.]+, \d+ ms$/m);
    expect(shown.stdout).toMatch(/^serving\s+yes$/m);
    expect(shown.stdout).toMatch(/^usage\s+no run yet$/m);
    expect(shown.stdout).toMatch(/^input:\nFIELD\s+TYPE\s+REQUIRED\s+ABOUT\ndomain\s+string\s+yes\n/m);
    expect(shown.stdout).toMatch(/^status\s+"deliverable" \| "undeliverable" \| "risky"\s+yes$/m);
    expect(shown.stdout).toMatch(/^HTTP\s+curl -sS -X POST "http.*\/hub\/tools\/cli-email-tool\/run"/m);
    expect(shown.stdout).toMatch(/^CLI\s+svc hub run cli-email-tool domain=stripe\.com full_name='Jane Doe'$/m);
    expect(shown.stdout).toMatch(/^BATCH\s+svc batch hub:cli-email-tool rows\.csv/m);
    expect(shown.stdout).toMatch(/^MCP\s+svc hub mcp add cli-email-tool/m);

    const before = await w.ctx.state.account(w.teamId);
    const ran = await svcCli(['hub', 'run', 'cli-email-tool', 'domain=acme.com', 'full_name=Jane Doe'], caller);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^email\s+\S+@acme\.com$/m);
    expect(ran.stderr).toMatch(/^hit; cost \$[\d.]+; call_[0-9a-f]{32}\n$/);
    expect((await w.ctx.state.account(w.teamId)).earnings_micro - before.earnings_micro).toBe(50_000);

    const json = JSON.parse((await svcCli(['hub', 'run', 'cli-email-tool@1', 'domain=acme.com', 'full_name=Jane Doe', '--json'], caller)).stdout);
    expect(json._svc).toMatchObject({ tool_id: 'cli-email-tool', version: 1 });
    // two runs measured: a thin sample, said as counts
    expect((await svcCli(['hub', 'show', 'cli-email-tool'], caller)).stdout).toMatch(
      /^usage\s+2 of 2 runs ok \(too few to call a rate\); median \d+ ms; 2 runs in all$/m,
    );
    // the maker's page: each version's runs and earnings (two runs of $0.05 so far)
    expect((await svcCli(['hub', 'show', 'cli-email-tool'], maker)).stdout).toMatch(
      /^VERSION\s+STATUS\s+CREATED\s+LIVE\s+RUNS\s+EARNINGS\s+NOTE\n1\s+live\s+\S+\s+\S+\s+2\s+\$0\.10\s*$/m,
    );
    // a review by the team that ran it, on the page; search names the tool as hub:<id> and its maker, and svc show takes that id
    expect(await svcCli(['review', 'hub:cli-email-tool', 'useful', 'found', 'and', 'checked'], caller)).toMatchObject({ code: 0 });
    const page = await svcCli(['show', 'hub:cli-email-tool'], caller);
    expect(page).toMatchObject({ code: 0, stdout: (await svcCli(['hub', 'show', 'cli-email-tool'], caller)).stdout });
    expect(page.stdout).toMatch(/^reviews\s+1 team: useful 100%, partly 0%, not_useful 0%$/m);
    expect((await svcCli(['search', 'cli', 'email', 'tool'], caller)).stdout).toMatch(/^hub:cli-email-tool\s+tool\s+routed-test-team\s/m);

    expect(await svcCli(['hub', 'retire', 'cli-email-tool', '--yes'], caller)).toMatchObject({ code: 4 });
    // retiring asks first; with no terminal to answer, nothing is done until --yes
    expect(await svcCli(['hub', 'retire', 'cli-email-tool'], maker)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/cannot be undone.*Nothing done: no terminal to answer; pass --yes/),
    });
    expect((await svcCli(['hub', 'show', 'cli-email-tool'], caller)).stdout).toMatch(/^status\s+live$/m);
    expect(await svcCli(['hub', 'retire', 'cli-email-tool', '--yes'], maker)).toMatchObject({
      code: 0,
      stderr:
        "Retired cli-email-tool: this cannot be undone. Every version stopped taking runs and no new version can be published; the id stays your team's, so no one else can take it.\n",
    });
    const after = await svcCli(['hub', 'run', 'cli-email-tool', 'domain=acme.com', 'full_name=Jane Doe'], maker);
    expect(after.code).toBe(4);
    expect(after.stderr).toMatch(/^svc: .*retired/);
  });

  it('a run that finds nothing exits 3; an input the schema refuses exits 4', async () => {
    const dir = toolDir('cli-miss-tool', emailTool());
    expect((await svcCli(['hub', 'publish', dir, '--json'], maker)).code).toBe(0);
    const miss = await svcCli(['hub', 'run', 'cli-miss-tool', 'domain=nohit.com', 'full_name=Jane Doe'], caller);
    expect(miss.code).toBe(3);
    expect(miss.stderr).toMatch(/miss: nothing found \(stopped: miss at step find\)/);
    const refused = await svcCli(['hub', 'run', 'cli-miss-tool', 'domain=acme.com'], caller);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/full_name/);
    // two problems read as one sentence, not "….; …"
    const twice = await svcCli(['hub', 'run', 'cli-miss-tool', 'domain=ac'], caller);
    expect(twice).toMatchObject({ code: 4, stderr: "svc: '/full_name' is required; '/domain' must NOT have fewer than 3 characters.\n" });
  });

  it('a version whose check fails is stored but not live (exit 3); a folder without the four files is a usage error', async () => {
    const dir = toolDir(
      'cli-failing-tool',
      emailTool((f) => {
        f.check.expect = { status: 'risky' };
      }),
    );
    const r = await svcCli(['hub', 'publish', dir, '--id', 'cli-failing', '--json'], maker);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ tool_id: 'cli-failing', version: 1, status: 'failed', check: { ok: false } });
    const mine = JSON.parse((await svcCli(['hub', 'list', '--mine', '--json'], maker)).stdout).tools;
    expect(mine.find((t: { tool_id: string }) => t.tool_id === 'cli-failing')).toMatchObject({
      version: 1,
      status: 'failed',
      live_version: null,
      reason: expect.stringMatching(/risky/),
    });
    const others = JSON.parse((await svcCli(['hub', 'list', '--json'], caller)).stdout).tools;
    expect(others.map((t: { tool_id: string }) => t.tool_id)).not.toContain('cli-failing');
    const empty = toolDir('cli-empty', {});
    expect(await svcCli(['hub', 'publish', empty], maker)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/tool\.json cannot be read; a tool folder holds tool\.json, input\.schema\.json, output\.schema\.json, check\.json/),
    });
    expect(await svcCli(['hub', 'show', 'no-such-tool'], maker)).toMatchObject({ code: 4 });
  });
  it('a version left unchecked for want of balance goes live with svc hub check once credit came; list --mine shows each state', async () => {
    const poor = await w.ctx.state.createTeam('cli poor maker', 0);
    const env = { SVC_URL: w.url, SVC_TOKEN: poor!.token };
    const dir = toolDir('cli-later-tool', emailTool());
    const first = await svcCli(['hub', 'publish', dir], env);
    expect(first.code).toBe(3);
    expect(first.stdout).toMatch(/^status\s+unchecked$/m);
    const listed = await svcCli(['hub', 'list', '--mine'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^TOOL\s+NEWEST\s+STATUS\s+LIVE\s+PRICE\s+NOTE\ncli-later-tool\s+1\s+unchecked\s+none\s+\$0\.05\s+\S/);
    // the check's cost comes first; with no terminal to answer, nothing runs until --yes
    expect(await svcCli(['hub', 'check', 'cli-later-tool@1'], env)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /^svc: The check of cli-later-tool@1 \(unchecked\) costs at most \$[\d.]+, charged to your balance\. Run it\? Nothing done: no terminal to answer; pass --yes/,
      ),
    });
    expect(await svcCli(['hub', 'check', 'cli-later-tool@1', '--yes'], env)).toMatchObject({ code: 3, stdout: expect.stringMatching(/^status\s+unchecked$/m) });

    await w.ctx.state.credit(poor!.team.id, 1_000_000);
    const checked = await svcCli(['hub', 'check', 'cli-later-tool@1', '--yes'], env);
    expect(checked.code).toBe(0);
    expect(checked.stdout).toMatch(/^tool\s+cli-later-tool@1\nstatus\s+live\ncheck\s+passed, cost \$[\d.]+\n$/);
    expect(JSON.parse((await svcCli(['hub', 'list', '--mine', '--json'], env)).stdout).tools).toEqual([
      expect.objectContaining({ tool_id: 'cli-later-tool', status: 'live', live_version: 1 }),
    ]);
    // a live tool's check runs again on demand: it stays live, and its page shows the new check
    const again = await svcCli(['hub', 'check', 'cli-later-tool', '--yes'], env);
    expect(again).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^status\s+live\ncheck\s+passed/m),
      stderr: expect.stringMatching(/^The check of cli-later-tool@1 \(live\) costs at most/),
    });
    expect(await svcCli(['hub', 'list', '--mine'], caller)).toMatchObject({ code: 0 });
    expect((await svcCli(['hub', 'retire', 'cli-later-tool', '--yes'], env)).code).toBe(0);
    expect(JSON.parse((await svcCli(['hub', 'list', '--mine', '--json'], env)).stdout).tools[0]).toMatchObject({ status: 'retired' });
    expect(await svcCli(['hub', 'list', '--mine'], { SVC_URL: w.url, SVC_TOKEN: (await w.ctx.state.createTeam('cli newcomer', 0))!.token })).toMatchObject({
      code: 0,
      stdout: '',
      stderr: expect.stringMatching(/published no tool yet/),
    });
  });
});

// What the dashboard's capability, operation and account pages say about a routed capability, in real
// headless Chromium against the real runtime and the real catalog (its providers keyed to a real
// sandbox): identity sets shown as required, and the order shown is the order a call tries.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launch, type Browser } from '../helpers/browser.ts';
import { serveDashboard, type DashboardServer } from '../helpers/dashboard.ts';
import { REAL_DIST } from '../helpers/paths.ts';
import { createSandbox, loadSandboxCatalog, sandboxKeys, startSandbox, type RunningSandbox } from '../../sandbox/index.ts';
import { sandboxEnv } from '../../sandbox/svc-env.ts';
import { emailTool } from '../hub/tool-files.ts';

let server: DashboardServer;
let browser: Browser;
let page: Page;
let errors: string[];
let sandbox: RunningSandbox;

beforeAll(async () => {
  const runtime = loadSandboxCatalog(REAL_DIST);
  const { keys } = sandboxKeys(runtime, {});
  sandbox = await startSandbox(createSandbox(runtime, { keys }), 0);
  server = await serveDashboard('dashboard-contract', sandboxEnv(runtime, sandbox.url, keys));
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await sandbox?.close();
});
afterEach(async () => {
  expect(errors, 'console errors on the page').toEqual([]);
  await page.close();
});

async function open(hash: string): Promise<void> {
  ({ page, errors } = await browser.open());
  await page.goto(`${server.url}/${hash}`);
}

/** each row of a table as its cells' text */
const rowsOf = (selector: string) =>
  page.locator(`${selector} tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())));

describe('identity sets on the operation page', () => {
  it('a routed entry whose only identity field is email shows it as required', async () => {
    await open('#/op/svc.people.email.verify');
    await page.locator('table.params').waitFor();
    expect((await rowsOf('table.params')).find((r) => r[0] === 'email')?.[3]).toBe('required');
    expect(await page.locator('.identity-sets').count()).toBe(0);
  });

  it('several identity sets read "one of these sets is required", each field marked as in a set', async () => {
    await open('#/op/svc.people.email.find');
    await page.locator('table.params').waitFor();
    expect((await rowsOf('table.params')).find((r) => r[0] === 'linkedin_url')?.[3]).toBe('in a required set');
    await expect(page.locator('.identity-sets').textContent()).resolves.toMatch(/^One of these sets is required: \{.+\} or \{.+\}\.$/);
  });
});

describe('the capability page', () => {
  it('shows the children in the order a dry run tries them, with bills a miss, apart from the market table', async () => {
    const fresh = (await server.ctx.state.createTeam('order viewer', 1_000_000))!;
    const dry = await fetch(`${server.url}/proxy/people.email.verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-token': fresh.token, 'X-Svc-Route-Dry-Run': '1' },
      body: JSON.stringify({ email: 'jane@acme.com' }),
    });
    const tried = ((await dry.json()) as { plan: Array<{ endpoint_id: string }> }).plan.map((a) => a.endpoint_id);
    await open('#/capability/people.email.verify');
    await page.locator('#plan tbody tr').first().waitFor();
    expect(await page.locator('#plan thead').textContent()).toMatch(/bills a miss/);
    const shown = (await rowsOf('#plan')).map((r) => r[1]);
    expect(tried.length).toBeGreaterThan(5);
    expect(shown).toEqual(tried);
    // the market table keeps its own order and its own label
    await page.getByRole('heading', { name: 'The market, cheapest per hit first' }).waitFor();
    const market = (await rowsOf('#market')).map((r) => r[1]);
    expect(market).not.toEqual(shown);
    expect([...market].sort()).toEqual(expect.arrayContaining([...shown].sort()));
  });
});

describe('measured figures', () => {
  it('a routed entry shows its own calls, a thin sample as counts; same-provider siblings by operation name', async () => {
    for (let i = 0; i < 4; i++) server.ctx.state.recordAttempt('svc.people.email.find', { outcome: i < 3 ? 'hit' : 'miss', ms: 400 + i, at: Date.now() });
    await open('#/op/svc.people.email.find');
    await page.locator('h2', { hasText: 'Observed' }).waitFor();
    const observed = page.locator('h2:has-text("Observed") + div table');
    await expect(observed.textContent()).resolves.toContain('3 of 4 hits');
    await open('#/op/hunter.people.email.find');
    await page.locator('#siblings').waitFor();
    const names = (await rowsOf('#siblings')).map((r) => r[0]);
    expect(new Set(names).size).toBe(names.length);
    expect((await rowsOf('#siblings')).some((r) => r[2] === '0%')).toBe(false);
  });
});

describe('the account page', () => {
  it("lists the team's hub tools with versions, check outcome, runs and earnings, and fits a 390 px screen", async () => {
    const created = (await server.ctx.state.createTeam('Tool list team', 2_000_000))!;
    const published = await fetch(`${server.url}/hub/tools`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-token': created.token },
      body: JSON.stringify({ tool_id: 'listed-email-check', files: emailTool() }),
    });
    expect(published.status).toBe(201);
    const mine = (
      (await (await fetch(`${server.url}/hub/tools?mine=1`, { headers: { 'x-svc-token': created.token } })).json()) as {
        tools: Array<{ status: string; reason?: string }>;
      }
    ).tools;
    ({ page, errors } = await browser.open({ width: 390, height: 844 }));
    await page.goto(`${server.url}/#/account`);
    await page.locator('#token').fill(created.token);
    await page.locator('#sign-in button').click();
    await page.locator('#my-tools tbody tr').first().waitFor();
    const [row] = await rowsOf('#my-tools');
    expect(row.slice(1, 3)).toEqual(['listed-email-check', mine[0].status]);
    expect(row[3]).toMatch(/^1 /);
    expect(row[4]).toBe(mine[0].reason ?? (mine[0].status === 'live' ? 'passed' : '—'));
    expect(row.slice(5)).toEqual(['0', '$0.00']);
    // no table wider than the screen unless inside its own scroll box
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('table')].filter((t) => !t.closest('.scroll') && t.getBoundingClientRect().right > 391).map((t) => t.id),
    );
    expect(wide).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(errors).toEqual([]);
  });
});

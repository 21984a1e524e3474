// The dashboard in real headless Chromium against the real runtime and the real catalog.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launch, type Browser } from '../helpers/browser.ts';
import { serveDashboard, type DashboardServer } from '../helpers/dashboard.ts';
import { REAL_DIST, ROOT } from '../helpers/paths.ts';
import type { CatalogEntry } from '../../language/dist-types.ts';
import { emailTool } from '../hub/tool-files.ts';

const SHOTS = join(ROOT, '.test-screenshots');

let server: DashboardServer;
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await serveDashboard();
  measureSome('svc.people.email.verify');
  browser = await launch();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(hash: string): Promise<void> {
  ({ page, errors } = await browser.open());
  await page.goto(`${server.url}/${hash}`);
}
/** Calls recorded for the first children of a routed plan, so its chart and siblings show measured rows. */
function measureSome(routedId: string): void {
  const { routing } = JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'endpoints', `${routedId}.json`), 'utf8')) as CatalogEntry;
  routing!.plan.slice(0, 6).forEach(({ endpoint_id }, k) => {
    for (let i = 0; i < 40; i++)
      server.ctx.state.recordAttempt(endpoint_id, { outcome: i < 40 * (0.95 - k * 0.13) ? 'hit' : 'miss', ms: 180 + k * 90 + i * 9, at: Date.now() });
  });
}
const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });

afterEach(async () => {
  expect(errors, 'console errors on the page').toEqual([]);
  await page.close();
});

describe('the dashboard', () => {
  it('shows the platform shelves, and a shelf grouped by capability', async () => {
    await open('');
    await expect(page.locator('.card h2').first().textContent()).resolves.toBeTruthy();
    await shot('home');
    await page.locator('.card').first().click();
    await page.locator('section.capability h2').first().waitFor();
    expect(await page.locator('section.capability').count()).toBeGreaterThan(1);
    await shot('platform');
  });

  it("a shelf's routed capability lists its routed call's children, and apart from them what does the job by pass-through only", async () => {
    const shelf = (await (await fetch(`${server.url}/catalog/platforms/people`)).json()) as {
      capabilities: Array<{ capability: string; operations: Array<{ id: string; kind: string; routed_by: string | null }> }>;
    };
    const group = shelf.capabilities.find((c) => c.capability === 'people.email.find')!;
    const entry = (await (await fetch(`${server.url}/catalog/endpoints/svc.people.email.find`)).json()) as CatalogEntry;
    const children = new Set(entry.endpoint.routed_children);
    const shelfIds = (keep: (id: string) => boolean) => group.operations.filter((o) => o.kind !== 'routed' && keep(o.id)).map((o) => o.id);
    const apart = shelfIds((id) => !children.has(id));
    expect(apart.length).toBeGreaterThan(0);
    await open('#/platform/people');
    /** a routed capability's section, by the link to its plan */
    const sectionOf = (capability: string) => page.locator('section.capability', { has: page.locator(`h2 a[href="#/capability/${capability}"]`) });
    const section = sectionOf('people.email.find');
    await section.locator('table.routed-children').waitFor();
    const ids = (table: string) =>
      section.locator(`${table} tbody a`).evaluateAll((as) => as.map((a) => decodeURIComponent(a.getAttribute('href')!.replace('#/op/', ''))));
    const tried = await ids('table.routed-children');
    expect(tried).toEqual(['svc.people.email.find', ...shelfIds((id) => children.has(id))]);
    expect(new Set(tried.slice(1))).toEqual(children);
    expect(await ids('table.pass-through')).toEqual(apart);
    await expect(section.locator('.not-routed h3').textContent()).resolves.toBe('Not routed: call it by pass-through');
    // a routed capability whose every operation is a child shows no such part
    const whole = shelf.capabilities.find((c) => c.operations[0].kind === 'routed' && c.operations.every((o) => o.kind === 'routed' || o.routed_by !== null))!;
    expect(await sectionOf(whole.capability).locator('table.routed-children tbody tr').count()).toBe(whole.operations.length);
    expect(await sectionOf(whole.capability).locator('.not-routed').count()).toBe(0);
    await section.locator('.not-routed').scrollIntoViewIfNeeded();
    await shot('platform-not-routed');
  });

  it('searches as you type in the browser; the arrow keys and Enter open a result, Escape leaves', async () => {
    await open('');
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await page.locator('#q').pressSequentially('verify email', { delay: 20 });
    await page.locator('#results a').first().waitFor();
    const first = await page.locator('#results a').first().getAttribute('href');
    expect(first).toMatch(/^#\/op\/.*email\.verify/);
    expect(asked.filter((p) => p.startsWith('/catalog/search?') || p === '/catalog/search')).toEqual([]);
    await shot('search');
    await page.locator('#q').press('ArrowDown');
    const second = await page.locator('#results a.active').getAttribute('href');
    expect(second).not.toBe(first);
    await page.locator('#q').press('Enter');
    await page.waitForURL((u) => u.hash === second);
    await page.locator('#call-template').waitFor();
    await page.locator('#q').pressSequentially('serp');
    await page.locator('#q').press('Escape');
    await page.locator('.card').first().waitFor();
    expect(await page.locator('#q').inputValue()).toBe('');
  });

  it('ranks as GET /catalog/search ranks (the same search module over the same index)', async () => {
    await open('#/search?q=youtube%20comments');
    await page.locator('#results a').first().waitFor();
    const shown = (await page.locator('#results a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).map((h) =>
      decodeURIComponent(h!.replace('#/op/', '')),
    );
    const api = (await (await fetch(`${server.url}/catalog/search?q=youtube%20comments&limit=30`)).json()) as { results: Array<{ endpoint_id: string }> };
    expect(shown.length).toBeGreaterThan(3);
    expect(shown).toEqual(api.results.map((r) => r.endpoint_id));
  });

  it('says "nothing does this" for a job no operation knows a word of, as the finder does, yet lists a half-typed name', async () => {
    await open('');
    await page.locator('#q').pressSequentially('qqqq zzzz', { delay: 20 });
    await page.locator('#result-count', { hasText: 'Nothing does this' }).waitFor();
    expect(await page.locator('#results a').count()).toBe(0);
    await page.locator('#q').fill('');
    await page.locator('#q').pressSequentially('zerobou', { delay: 20 });
    await page.locator('#results a').first().waitFor();
    expect(await page.locator('#results a').first().getAttribute('href')).toMatch(/zerobounce/);
  });

  it('an operation page shows parameters, cost, the call template with the proxy URL, and its siblings side by side; Copy copies it', async () => {
    await open('#/op/hunter.people.email.verify');
    const meta = (await (await fetch(`${server.url}/meta`)).json()) as { proxy_url: string };
    const template = await page.locator('#call-template').textContent();
    expect(template).toContain(`${meta.proxy_url}/hunter/`);
    expect(template).not.toContain('{{proxy_url}}');
    await expect(page.locator('table.params').textContent()).resolves.toMatch(/email.*string.*required/);
    // who states the price, in the provider's own words, and that a credit's dollar rate is assumed
    await expect(page.locator('.cost').textContent()).resolves.toMatch(/documented, dollar rate assumed.*0\.5 credits per email verified.*help\.hunter\.io/s);
    expect(await page.locator('#siblings tbody tr').count()).toBeGreaterThan(2);
    await expect(page.locator('#siblings thead').textContent()).resolves.toMatch(/price per hit.*hit rate.*p50 \/ p95.*reviews/);
    await page.locator('#copy').click();
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(template);
    await shot('operation');
  });

  it('a routed capability page draws the plan as a table and a chart of price per hit against hit rate', async () => {
    await open('#/capability/people.email.verify');
    await page.locator('#plan-chart svg').waitFor();
    const rows = await page.locator('#market tbody tr').count();
    expect(rows).toBeGreaterThan(2);
    expect(await page.locator('#plan-chart svg .dot').count()).toBe(rows);
    // measured children sit on the hit-rate axis, the rest in the band of the unmeasured
    await expect(page.locator('#market tbody').textContent()).resolves.toMatch(/\d+%/);
    await shot('capability');
    await page.setViewportSize({ width: 960, height: 820 });
    await shot('readme'); // docs/dashboard.png is a copy of this one
  });

  it('shows the deploy banner when /meta answers a new app_version while the tab is open', async () => {
    ({ page, errors } = await browser.open());
    await page.clock.install();
    await page.goto(`${server.url}/#/`);
    await page.locator('.card').first().waitFor();
    await page.clock.runFor(60_000);
    expect(await page.locator('#deploy-banner').count()).toBe(0);
    server.deploy('a-new-build');
    try {
      // the page schedules its next look only once the last /meta answered, which a busy machine may
      // not have done when the clock ran on: run it on until a look sees the new version
      for (let i = 0; i < 50 && (await page.locator('#deploy-banner').count()) === 0; i++) {
        await page.clock.runFor(60_000);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await expect(page.locator('#deploy-banner').textContent()).resolves.toMatch(/a new version is deployed — reload/i);
    } finally {
      server.deploy('');
    }
  });

  it('signs in with a token, shows the balance and ledger, adds an own provider key, looks up its hub tool, and signs out', async () => {
    const created = (await server.ctx.state.createTeam('Browser test team', 12_500_000))!;
    // a charge the provider said was 3 credits where the list says 1, and one at its list price
    await server.ctx.state.charge(created.team.id, 30_000, {
      endpoint_id: 'companyenrich.companies.enrich',
      call_id: 'call-reported',
      list_micro: 10_000,
      reported_micro: 30_000,
      reported_value: 3,
      reported_unit: 'credits',
    });
    await server.ctx.state.charge(created.team.id, 20_000, { endpoint_id: 'hunter.people.email.find', call_id: 'call-listed' });
    await open('#/account');
    await page.locator('#token').fill(created.token);
    await page.locator('#sign-in button').click();
    await expect(page.locator('#balance').textContent()).resolves.toBe('$12.45');
    const reported = page.locator('#ledger tbody tr', { hasText: 'call-reported' });
    await expect(reported.locator('td').nth(2).textContent()).resolves.toBe('−$0.03');
    await expect(reported.locator('td').nth(3).textContent()).resolves.toBe('reported 3 credits = $0.03; list $0.01');
    await expect(page.locator('#ledger tbody tr', { hasText: 'call-listed' }).locator('td').nth(3).textContent()).resolves.toBe('');
    const cookies = await browser.context.cookies(server.url);
    expect(cookies.find((c) => c.name === 'svc_session')?.httpOnly).toBe(true);
    // the page also looks any tool up by its id (published before the team has an own key, so that
    // its check never reaches a real provider)
    const published = await fetch(`${server.url}/hub/tools`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-token': created.token },
      body: JSON.stringify({ tool_id: 'browser-email-check', files: emailTool() }),
    });
    expect(published.status).toBe(201);
    await page.locator('input[aria-label="tool id"]').fill('browser-email-check');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByText('Verified work email (browser-email-check)').waitFor();
    await page.locator('#own-keys input[name=provider]').fill('hunter');
    await page.locator('#own-keys input[name=key]').fill('hunter-key-of-the-team');
    await page.locator('#own-keys button[type=submit]').click();
    await page.locator('#own-keys li code', { hasText: 'hunter' }).waitFor();
    expect(await server.ctx.state.ownKeyProviders(created.team.id)).toEqual(['hunter']);
    expect(await page.content()).not.toContain('hunter-key-of-the-team');
    expect(await page.locator('#own-keys .set-aside').count()).toBe(0);
    // a key its provider refused is shown set aside, and until when: why calls are charged to the balance meanwhile
    server.ctx.router.deps.health.coolOwnKey(created.team.id, 'hunter');
    await page.reload();
    await expect(page.locator('#own-keys li', { hasText: 'hunter' }).locator('.set-aside').textContent()).resolves.toMatch(
      /^ set aside until .+: the provider refused it, so calls use the platform key and are charged to the balance/,
    );
    await shot('account');
    await page.locator('#sign-out').click();
    await page.locator('#token').waitFor();
    expect((await browser.context.cookies(server.url)).some((c) => c.name === 'svc_session')).toBe(false);
  });

  it("lists the team's tokens, creates one shown once, and revokes it, refused at once", async () => {
    const created = (await server.ctx.state.createTeam('Browser token team', 1_000_000))!;
    await open('#/account');
    await page.locator('#token').fill(created.token);
    await page.locator('#sign-in button').click();
    const rows = page.locator('#tokens tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    await expect(rows.first().textContent()).resolves.toContain('first token (this session)');
    await page.locator('#create-token input[name=token-name]').fill('laptop script');
    await page.locator('#create-token input[name=token-expires]').fill('2099-12-31');
    await page.locator('#create-token button[type=submit]').click();
    const secret = (await page.locator('#new-token-secret').textContent())!;
    expect(secret).toMatch(/^svc_[0-9A-Za-z]{32}$/);
    await expect.poll(() => rows.count()).toBe(2);
    const made = rows.filter({ hasText: 'laptop script' });
    await expect(made.textContent()).resolves.toMatch(/2099-12-31 00:00\s*active/);
    expect(await (await fetch(`${server.url}/teams/me`, { headers: { 'x-svc-token': secret } })).status).toBe(200);
    // the listing never holds a secret: only the box that shows the new one does
    expect(await page.locator('#tokens').textContent()).not.toContain('svc_');
    page.once('dialog', (d) => void d.accept());
    await made.getByRole('button', { name: 'Revoke laptop script' }).click();
    await made.getByText(/^revoked /).waitFor();
    const refused = await fetch(`${server.url}/teams/me`, { headers: { 'x-svc-token': secret } });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/^This token was revoked at /);
    await shot('account-tokens');
    // the next test signs in afresh
    await page.locator('#sign-out').click();
    await page.locator('#sign-in').waitFor();
  });

  it("a hub tool's page: maker, cost, check, usage, schemas as tables, versions, call templates; its maker retires it after a confirmation", async () => {
    const created = (await server.ctx.state.createTeam('Tool page team', 5_000_000))!;
    const published = await fetch(`${server.url}/hub/tools`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-token': created.token },
      body: JSON.stringify({ tool_id: 'browser-tool-page', files: emailTool() }),
    });
    expect(published.status).toBe(201);
    await open('#/account');
    await page.locator('#token').fill(created.token);
    await page.locator('#sign-in button').click();
    await page.locator('#balance').waitFor();
    await page.goto(`${server.url}/#/tool/browser-tool-page`);
    await page.locator('#maker').waitFor();
    expect(await page.locator('#maker').textContent()).toBe('Tool page team (tool-page-team)');
    expect(await page.locator('h1').textContent()).toBe('Verified work email');
    expect(await page.locator('#cost').textContent()).toMatch(/^\$0\.05 per run, plus its steps: at most \$[\d.]+ \(a run costs at most \$[\d.]+\)\.$/);
    expect(await page.locator('#last-check').textContent()).toMatch(/^Last check (passed|failed) on 20\d\d-\d\d-\d\d/);
    expect(await page.locator('#usage').textContent()).toBe('Runs: no run yet.');
    expect(await page.locator('#input-fields tbody tr').allTextContents()).toEqual(['domainstringrequired', 'full_namestringrequired']);
    expect(await page.locator('#output-fields tbody tr').first().textContent()).toBe('emailstringrequired');
    expect(await page.locator('#versions tbody tr').count()).toBe(1);
    expect(await page.locator('#call-templates pre').allTextContents()).toEqual([
      expect.stringMatching(/^curl -sS -X POST "http.*\/hub\/tools\/browser-tool-page\/run"/),
      expect.stringMatching(/^svc hub run browser-tool-page domain=stripe\.com/),
      expect.stringMatching(/^svc batch hub:browser-tool-page rows\.csv/),
      // its maker's own live tools are in the team's MCP set already: nothing to add
      "hub_browser-tool-page in your agents' tools/list: your own live tools are in your team's MCP set already",
    ]);
    await shot('tool');
    // retiring asks first: keeping it leaves it as it was
    await page.locator('#retire').click();
    expect(await page.locator('#retire-confirm').textContent()).toMatch(/cannot be undone.*The id stays your team's/);
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect(await page.locator('#retire-confirm').isHidden()).toBe(true);
    expect((await (await fetch(`${server.url}/hub/tools/browser-tool-page`, { headers: { 'x-svc-token': created.token } })).json()).retired_at).toBeUndefined();
    await page.locator('#retire').click();
    await page.locator('#retire-yes').click();
    await page.getByText('Retired browser-tool-page: this cannot be undone.', { exact: false }).waitFor();
    expect((await (await fetch(`${server.url}/hub/tools/browser-tool-page`, { headers: { 'x-svc-token': created.token } })).json()).status).toBe('retired');
    expect(errors).toEqual([]);
  });

  it('is readable on a phone', async () => {
    ({ page, errors } = await browser.open({ width: 390, height: 844 }));
    await page.goto(`${server.url}/#/op/svc.people.email.verify`);
    await page.locator('#call-template').waitFor();
    await shot('phone');
    // nothing wider than the screen but the tables' own scroll boxes
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((e) => !e.closest('.scroll') && e.getBoundingClientRect().right > 391)
        .map((e) => `${e.tagName}.${e.className}#${e.id}`)
        .slice(0, 5),
    );
    expect(wide).toEqual([]);
    expect(errors, 'console errors on the phone').toEqual([]);
  });
});

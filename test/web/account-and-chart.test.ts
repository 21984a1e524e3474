// The account page's list of the feedback and reviews a team sent, a routed capability's own measured
// figures (average cost per hit included), and the plan chart's labels on the capability with the
// most children, in real headless Chromium against the real runtime and catalog.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launch, type Browser } from '../helpers/browser.ts';
import { serveDashboard, type DashboardServer } from '../helpers/dashboard.ts';
import { REAL_DIST, ROOT } from '../helpers/paths.ts';
import type { CatalogEntry } from '../../language/dist-types.ts';

let server: DashboardServer;
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  mkdirSync(join(ROOT, '.test-screenshots'), { recursive: true });
  server = await serveDashboard('dashboard-account');
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
afterEach(async () => {
  expect(errors, 'console errors on the page').toEqual([]);
  await page.close();
});

describe('the account page', () => {
  it("lists the feedback and reviews the team sent, newest first, older ones a click away, and never another team's", async () => {
    const { team, token } = (await server.ctx.state.createTeam('Browser sent team', 1_000_000))!;
    const other = (await server.ctx.state.createTeam('Browser other team', 0))!;
    for (let i = 0; i < 51; i++) await server.ctx.feedback.submit(team.id, { kind: 'idea', message: `idea number ${i}` });
    await server.ctx.feedback.submit(other.team.id, { kind: 'bug', message: 'the other team wrote this' });
    const sent = await fetch(`${server.url}/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-token': token },
      body: JSON.stringify({ kind: 'wrong_data', message: 'The title is two jobs out of date.', endpoint_id: 'hunter.people.enrich' }),
    });
    expect(sent.status).toBe(201);
    const reviewed = await fetch(`${server.url}/reviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-token': token },
      body: JSON.stringify({ endpoint_id: 'svc.people.email.verify', usefulness: 'partly', reason: 'Catch-all domains stay unknown.' }),
    });
    expect(reviewed.status).toBe(201);

    ({ page, errors } = await browser.open());
    await page.goto(`${server.url}/#/account`);
    await page.locator('#token').fill(token);
    await page.locator('#sign-in button').click();
    const rows = page.locator('#my-feedback tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(50);
    await expect(rows.first().textContent()).resolves.toMatch(/wrong data\s*hunter\.people\.enrich\s*received\s*The title is two jobs out of date\.$/);
    expect(await rows.first().locator('a').getAttribute('href')).toBe('#/op/hunter.people.enrich');
    await page.locator('#my-feedback + button', { hasText: 'Older' }).click();
    await expect.poll(() => rows.count()).toBe(52);
    await expect(rows.last().textContent()).resolves.toMatch(/idea number 0$/);
    expect(await page.locator('#my-feedback + button').isHidden()).toBe(true);
    expect(await page.locator('#my-feedback').textContent()).not.toContain('the other team wrote this');
    expect(await page.locator('#my-reviews tbody tr').allTextContents()).toEqual([
      expect.stringMatching(/^\d{4}-\d\dsvc\.people\.email\.verifypartlyCatch-all domains stay unknown\.$/),
    ]);
    // the next test signs in afresh
    await page.locator('#sign-out').click();
    await page.locator('#sign-in').waitFor();
  });

  it('says so when the team sent nothing yet', async () => {
    const { token } = (await server.ctx.state.createTeam('Browser quiet team', 0))!;
    ({ page, errors } = await browser.open());
    await page.goto(`${server.url}/#/account`);
    await page.locator('#token').fill(token);
    await page.locator('#sign-in button').click();
    await expect(page.locator('#my-feedback').textContent()).resolves.toMatch(/^No feedback sent yet/);
    await expect(page.locator('#my-reviews').textContent()).resolves.toMatch(/^No reviews yet/);
    await page.locator('#sign-out').click();
    await page.locator('#sign-in').waitFor();
  });
});

describe('a routed capability page', () => {
  it('shows what was measured on the capability itself: calls, hit rate, latency and the average cost per hit over how many calls', async () => {
    // (another capability: a live entry read may be reused for a moment after its figures change)
    ({ page, errors } = await browser.open());
    await page.goto(`${server.url}/#/capability/people.phone.verify`);
    await expect(page.locator('#measured').textContent()).resolves.toBe('No routed calls recorded yet.');
    await page.close();
    const now = Date.now();
    [
      ['hit', 30_000],
      ['miss', 5_000],
      ['hit', 20_000],
    ].forEach(([outcome, paid], i) =>
      server.ctx.state.recordAttempt('svc.people.phone.find', { outcome: outcome as 'hit' | 'miss', ms: 400 + i * 100, at: now, paid_micro: paid as number }),
    );
    ({ page, errors } = await browser.open());
    await page.goto(`${server.url}/#/capability/people.phone.find`);
    await page.locator('#measured tbody tr').waitFor();
    expect(await page.locator('#measured thead').textContent()).toBe('routed callshit ratep50p95average cost per hit');
    // 55,000 micro-USD paid over 2 hits, in 3 calls: too few for a share, said with the count
    expect(await page.locator('#measured tbody td').allTextContents()).toEqual(['3', '2 of 3 hits', '500 ms', '600 ms', '$0.0275 per hit over only 3 calls']);
    // and the routed entry's own page says the same
    await page.goto(`${server.url}/#/op/svc.people.phone.find`);
    await page.locator('#observed tbody tr').waitFor();
    expect(await page.locator('#observed tbody td').last().textContent()).toBe('$0.0275 per hit over only 3 calls');
  });
});

/** every pair of text boxes of the chart that intersect, by their text */
const overlaps = () =>
  page.locator('#plan-chart svg').evaluate((svg) => {
    const boxes = [...svg.querySelectorAll('text')].map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() })).filter((b) => b.r.width > 0);
    const hits: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i].r, boxes[j].r];
        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) hits.push(`${boxes[i].text} × ${boxes[j].text}`);
      }
    }
    return hits;
  });

describe('the plan chart', () => {
  const capability = 'people.email.find';
  const { routing } = JSON.parse(readFileSync(join(REAL_DIST, 'catalog', 'endpoints', `svc.${capability}.json`), 'utf8')) as CatalogEntry;

  for (const width of [1280, 390]) {
    it(`places every child's number where no label overlaps another, at ${width} px, measured children on one spot included`, async () => {
      expect(routing!.plan.length).toBe(33); // the most children of any capability
      // a few children measured with the same figures (the same spot on the chart), the rest unmeasured
      routing!.plan.slice(0, 5).forEach(({ endpoint_id }) => {
        for (let i = 0; i < 40; i++) server.ctx.state.recordAttempt(endpoint_id, { outcome: i < 30 ? 'hit' : 'miss', ms: 200, at: Date.now() });
      });
      ({ page, errors } = await browser.open({ width, height: width < 1280 ? 844 : 860 }));
      await page.goto(`${server.url}/#/capability/${capability}`);
      await page.locator('#plan-chart svg .dot').first().waitFor();
      expect(await page.locator('#plan-chart svg .dot').count()).toBe(33);
      const numbers = await page.locator('#plan-chart svg .dot text').allTextContents();
      expect(numbers.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 33 }, (_, i) => i + 1));
      expect(await overlaps()).toEqual([]);
      await page.locator('#plan-chart').screenshot({ path: join(ROOT, '.test-screenshots', `plan-chart-${width}.png`) });
      expect(errors).toEqual([]);
    });
  }
});

// What the dashboard's capability, operation and account pages say about a routed capability, in real
// headless Chromium against the real runtime and the real catalog: identity sets shown as required.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launch, type Browser } from '../helpers/browser.ts';
import { serveDashboard, type DashboardServer } from '../helpers/dashboard.ts';

let server: DashboardServer;
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  server = await serveDashboard('dashboard-contract');
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

async function open(hash: string): Promise<void> {
  ({ page, errors } = await browser.open());
  await page.goto(`${server.url}/${hash}`);
}

/** each row of a table as its cells' text */
const rowsOf = (selector: string) => page.locator(`${selector} tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())));

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

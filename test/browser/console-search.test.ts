import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, freePort, launchBrowser } from '../helpers/browser.ts';
import { CHAT_TOKEN } from '../helpers/chat-fixture.ts';
import { consoleScreenshot, openConsole } from '../helpers/console-browser.ts';
import { bearer, startHostedFixture, type HostedFixture } from '../helpers/hosted-fixture.ts';

/** The console's search playground in Chromium: a filter the API refuses, its 422 shown by the editor, then one it runs, paged. */
describe.skipIf(!browserAvailable())('console search in a browser', { timeout: 90_000 }, () => {
  let fx: HostedFixture;
  let browser: Browser;
  let serverUrl: string;
  let page: Page;
  let violations: string[];

  beforeAll(async () => {
    const port = await freePort();
    serverUrl = `http://127.0.0.1:${port}`;
    fx = await startHostedFixture('sqlite', { port, config: { publicUrl: serverUrl } });
    const scoped = await fx.scopedToken('end-user-1');
    const connector = await fx.createConnector('end-user-1', 'chat', { token: CHAT_TOKEN }, scoped);
    // Searches need the first replication done.
    const replication = async () =>
      JSON.parse((await fx.http.get(`api/v1/connectors/sources/${connector.id}/replication`, { headers: bearer(scoped) })).body).status;
    for (let tries = 0; (await replication()) !== 'ready'; tries++) {
      if (tries > 300) throw new Error('the first replication did not finish');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    browser = await launchBrowser();
    ({ page, violations } = await openConsole(browser, serverUrl, fx));
  });
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('shows the API’s 422 beside the filter, then runs a valid filter and pages its hits', async () => {
    await page.getByRole('link', { name: 'end-user-1' }).click();
    await page.getByRole('link', { name: 'Search playground' }).click();
    await page.getByRole('heading', { name: 'Search', level: 1 }).waitFor();
    await page.getByLabel('Entity').fill('users');
    const filter = page.getByLabel('Filter (JSON)');
    await filter.fill('{"eq": {"is_bot": "no"}, "between": {"name": 1}}');
    await page.getByRole('button', { name: 'Search' }).click();
    const issues = page.locator('#search-issues');
    await issues.waitFor();
    expect(await issues.textContent()).toContain('filter');
    expect(await filter.getAttribute('aria-invalid')).toBe('true');
    expect(await filter.inputValue()).toContain('between'); // kept as typed, to correct
    await consoleScreenshot(page, 'search-invalid-filter');

    await filter.fill('{"eq": {"is_bot": false}}');
    await page.getByLabel('Hits per page').selectOption('5');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('heading', { name: 'Results, page 1' }).waitFor();
    expect(await issues.count()).toBe(0);
    expect(await filter.getAttribute('aria-invalid')).toBe('false');
    const firstPage = await page.locator('.hits > li strong').allTextContents();
    expect(firstPage).toHaveLength(5);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByRole('heading', { name: 'Results, page 2' }).waitFor();
    const secondPage = await page.locator('.hits > li strong').allTextContents();
    expect(secondPage.length).toBeGreaterThan(0);
    expect(secondPage.filter((id) => firstPage.includes(id))).toEqual([]);
    await consoleScreenshot(page, 'search-results');
    await page.getByRole('button', { name: 'First page' }).click();
    await page.getByRole('heading', { name: 'Results, page 1' }).waitFor();
    expect(await page.locator('.hits > li strong').allTextContents()).toEqual(firstPage);
    expect(violations).toEqual([]);
  });

  it('lists the end users, their sources, replication status and counts per entity', async () => {
    await page.getByRole('link', { name: 'Workspaces' }).click();
    await page.getByRole('link', { name: 'end-user-1' }).click();
    await page.getByRole('link', { name: 'End users' }).click();
    await page.getByRole('heading', { name: 'end-user-1', level: 2 }).waitFor();
    const users = page.getByRole('row', { name: /^users / });
    await users.waitFor();
    expect(await users.getByRole('cell').first().textContent()).toBe(String(fx.chatSandbox.data.users.length));
    expect(await page.getByText('Replication:').textContent()).toContain('ready');
    await consoleScreenshot(page, 'end-users');
    expect(violations).toEqual([]);
  });
});

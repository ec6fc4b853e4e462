import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserAvailable, freePort, launchBrowser } from '../helpers/browser.ts';
import { CHAT_TOKEN } from '../helpers/chat-fixture.ts';
import { consoleScreenshot } from '../helpers/console-browser.ts';
import { bearer, startHostedFixture, type HostedFixture } from '../helpers/hosted-fixture.ts';

const WINDOW_MS = 7_000;
const TABS = 8;

/** How the server's reads of a polled list add up with many console tabs open in one browser: one tab reads for all. */
describe.skipIf(!browserAvailable())('console polling shared between tabs', { timeout: 120_000 }, () => {
  let fx: HostedFixture;
  let browser: Browser;
  let serverUrl: string;
  let connectionId: string;

  const api = async (method: 'get' | 'post', path: string, json?: unknown) => {
    const response = await fx.http[method](path, { headers: bearer(await fx.operatorToken()), ...(json ? { json } : {}) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return JSON.parse(response.body);
  };
  /** Requests for the job list the server received so far (its request log: one line each). */
  const jobListReads = () => fx.logs.filter((line) => line.includes('"msg":"request"') && line.includes('"path":"/v1/jobs"')).length;
  const readsOver = async (ms: number) => {
    const before = jobListReads();
    await new Promise((resolve) => setTimeout(resolve, ms));
    return jobListReads() - before;
  };
  const syncToEnd = async () => {
    const { jobId } = await api('post', 'v1/jobs', { connectionId, jobType: 'sync' });
    // Waited for by hand: expect.poll has no test to belong to in beforeAll.
    for (let status = ''; status !== 'succeeded'; status = (await api('get', `v1/jobs/${jobId}`)).status) {
      if (status === 'failed' || status === 'cancelled') throw new Error(`job ${jobId} ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return jobId as number;
  };
  /** Shown or hidden as a switched-away tab is (a headless page is always shown): the console hears visibilitychange. */
  const setVisibility = (page: Page, state: 'visible' | 'hidden') =>
    page.evaluate((value) => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
      document.dispatchEvent(new Event('visibilitychange'));
    }, state);

  beforeAll(async () => {
    const port = await freePort();
    serverUrl = `http://127.0.0.1:${port}`;
    fx = await startHostedFixture('sqlite', { port, config: { publicUrl: serverUrl } });
    const { workspaceId } = await api('post', 'v1/workspaces', { name: 'Polling' });
    const { sourceId } = await api('post', 'v1/sources', {
      name: 'Team chat',
      workspaceId,
      configuration: { sourceType: 'chat', credentials: { token: CHAT_TOKEN } },
    });
    const { destinationId } = await api('post', 'v1/destinations', { name: 'Tables', workspaceId, configuration: { destinationType: 'sqlite' } });
    const streams = [{ name: 'users', syncMode: 'full_refresh_overwrite' }];
    ({ connectionId } = await api('post', 'v1/connections', { sourceId, destinationId, name: 'Chat to tables', configurations: { streams } }));
    await syncToEnd();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  const openJobList = async (context: BrowserContext) => {
    const page = await context.newPage();
    await page.goto(`${serverUrl}/console#/jobs`);
    await page
      .getByRole('link', { name: /^Job \d+$/ })
      .first()
      .waitFor();
    return page;
  };

  it('reads a polled list as often with eight tabs open as with one, shares each answer, and hands over when its reader goes', async () => {
    const context = await browser.newContext();
    const first = await context.newPage();
    await first.goto(`${serverUrl}/console`);
    await first.getByLabel('Client id').fill(fx.clientId);
    await first.getByLabel('Client secret').fill(fx.clientSecret);
    await first.getByRole('button', { name: 'Sign in' }).click();
    await first.getByRole('heading', { name: 'Workspaces', level: 1 }).waitFor();
    await first.goto(`${serverUrl}/console#/jobs`);
    await first
      .getByRole('link', { name: /^Job \d+$/ })
      .first()
      .waitFor();

    const alone = await readsOver(WINDOW_MS);
    const pages = [first];
    for (let i = 1; i < TABS; i++) pages.push(await openJobList(context));
    const together = await readsOver(WINDOW_MS);
    console.log(`job list reads in ${WINDOW_MS} ms: one tab ${alone}, ${TABS} tabs ${together}`);
    expect(alone).toBeGreaterThan(0);
    // Not one read per tab: the same as one tab's, give or take where the window cuts the interval.
    expect(together).toBeLessThanOrEqual(alone + 1);

    // Each tab is told what the one read: a new job shows in all of them.
    const jobId = await syncToEnd();
    for (const page of pages) await page.getByRole('link', { name: `Job ${jobId}` }).waitFor({ timeout: 15_000 });
    await consoleScreenshot(pages.at(-1)!, 'polling-shared');

    // Whichever tab reads, closing all but two leaves one of them reading.
    for (const page of pages.splice(2)) await page.close();
    expect(await readsOver(WINDOW_MS)).toBeGreaterThan(0);

    // Hidden tabs ask nothing; a tab shown again reads at once and leads.
    for (const page of pages) await setVisibility(page, 'hidden');
    await readsOver(3_500);
    expect(await readsOver(WINDOW_MS)).toBe(0);
    await setVisibility(pages[1]!, 'visible');
    const shown = await readsOver(WINDOW_MS);
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThanOrEqual(alone + 1);
    await context.close();
  });
});

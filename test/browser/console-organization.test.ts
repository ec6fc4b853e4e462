import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, freePort, launchBrowser } from '../helpers/browser.ts';
import { CHAT_TOKEN } from '../helpers/chat-fixture.ts';
import { consoleScreenshot, openConsole } from '../helpers/console-browser.ts';
import { bearer, startHostedFixture, type HostedFixture } from '../helpers/hosted-fixture.ts';

const SOURCES = 130;
const CONNECTIONS = 104;

/** The organization's counts in Chromium with more than a page (100) of sources and connections in a workspace. */
describe.skipIf(!browserAvailable())('console organization counts in a browser', { timeout: 120_000 }, () => {
  let fx: HostedFixture;
  let browser: Browser;
  let serverUrl: string;

  const post = async (path: string, json: unknown) => {
    const response = await fx.http.post(path, { headers: bearer(await fx.operatorToken()), json });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return JSON.parse(response.body);
  };
  /** `count` creations through the API, ten at a time. */
  const many = async (count: number, create: (index: number) => Promise<unknown>) => {
    for (let start = 0; start < count; start += 10) await Promise.all(Array.from({ length: Math.min(10, count - start) }, (_, i) => create(start + i)));
  };

  beforeAll(async () => {
    const port = await freePort();
    serverUrl = `http://127.0.0.1:${port}`;
    fx = await startHostedFixture('sqlite', { port, config: { publicUrl: serverUrl } });
    const chat = { sourceType: 'chat', credentials: { token: CHAT_TOKEN } };
    const big = (await post('v1/workspaces', { name: 'Big' })).workspaceId;
    const small = (await post('v1/workspaces', { name: 'Small' })).workspaceId;
    const { destinationId } = await post('v1/destinations', { name: 'Tables', workspaceId: big, configuration: { destinationType: 'sqlite' } });
    const sourceIds: string[] = [];
    await many(SOURCES, async (i) => sourceIds.push((await post('v1/sources', { name: `Chat ${i}`, workspaceId: big, configuration: chat })).sourceId));
    const streams = { streams: [{ name: 'users', syncMode: 'full_refresh_overwrite' }] };
    await many(CONNECTIONS, (i) => post('v1/connections', { name: `Chat ${i} to tables`, sourceId: sourceIds[i], destinationId, configurations: streams }));
    await post('v1/sources', { name: 'Lone chat', workspaceId: small, configuration: chat });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  it("counts every source and connection of a workspace past the API's first page", async () => {
    const { page, violations } = await openConsole(browser, serverUrl, fx);
    const cells = async (workspace: string) =>
      page
        .getByRole('row', { name: new RegExp(`^${workspace} `) })
        .getByRole('cell')
        .allTextContents();
    await expect.poll(() => cells('Big')).toEqual([String(SOURCES), '1', String(CONNECTIONS), 'none']);
    expect(await cells('Small')).toEqual(['1', '0', '0', 'none']);
    await consoleScreenshot(page, 'organization-counts');

    // The workspace's own lists hold every item too.
    await page.getByRole('link', { name: 'Big' }).click();
    await page.getByText(`Chat ${SOURCES - 1}`, { exact: true }).waitFor();
    expect(await page.locator('section[aria-labelledby="sources-heading"] ul.cards > li').count()).toBe(SOURCES);
    await expect.poll(() => page.getByRole('link', { name: /^Chat \d+ to tables$/ }).count()).toBe(CONNECTIONS);
    expect(violations).toEqual([]);
    await page.close();
  });
});

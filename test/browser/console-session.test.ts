import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, freePort, launchBrowser } from '../helpers/browser.ts';
import { CHAT_TOKEN } from '../helpers/chat-fixture.ts';
import { consoleScreenshot, openConsole } from '../helpers/console-browser.ts';
import { workspaceReader } from '../helpers/console-session.ts';
import { bearer, startHostedFixture, type HostedFixture } from '../helpers/hosted-fixture.ts';

/** The console in headless Chromium: signing in and out, and what a workspace reader is offered. */
describe.skipIf(!browserAvailable())('console sessions in a browser', { timeout: 90_000 }, () => {
  let fx: HostedFixture;
  let browser: Browser;
  let serverUrl: string;
  let workspaceId: string;
  const reader = { clientId: '', clientSecret: '' };

  beforeAll(async () => {
    const port = await freePort();
    serverUrl = `http://127.0.0.1:${port}`;
    fx = await startHostedFixture('sqlite', { port, config: { publicUrl: serverUrl } });
    const admin = await fx.operatorToken();
    const post = async (path: string, json: unknown) => {
      const response = await fx.http.post(path, { headers: bearer(admin), json });
      expect(response.statusCode, response.body).toBeLessThan(300);
      return JSON.parse(response.body);
    };
    workspaceId = (await post('v1/workspaces', { name: 'Support team' })).workspaceId;
    const chat = { sourceType: 'chat', credentials: { token: CHAT_TOKEN } };
    const { sourceId } = await post('v1/sources', { name: 'Team chat', workspaceId, configuration: chat });
    const { destinationId } = await post('v1/destinations', { name: 'Local tables', workspaceId, configuration: { destinationType: 'sqlite' } });
    const streams = { streams: [{ name: 'users', syncMode: 'full_refresh_overwrite' }] };
    await post('v1/connections', { sourceId, destinationId, name: 'Chat to tables', configurations: streams, status: 'active' });

    Object.assign(reader, await workspaceReader(fx, workspaceId));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('signs in to an httpOnly cookie the page cannot read, and signs out', async () => {
    const { page, violations } = await openConsole(browser, serverUrl, fx);
    const cookies = await page.context().cookies();
    const session = cookies.find((cookie) => cookie.name === 'plugboard_console')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('plugboard_console=');
    expect(await page.content()).not.toContain(fx.clientSecret);
    await page.getByRole('link', { name: 'Support team' }).waitFor();
    await consoleScreenshot(page, 'signed-in');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the Plugboard console' }).waitFor();
    expect((await page.context().cookies()).find((cookie) => cookie.name === 'plugboard_console')).toBeUndefined();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to the Plugboard console' }).waitFor();
    await consoleScreenshot(page, 'signed-out');
    expect(violations).toEqual([]);
    await page.close();
  });

  it('says what to do after wrong credentials', async () => {
    const page = await browser.newPage();
    await page.goto(`${serverUrl}/console`);
    await page.getByLabel('Client id').fill(fx.clientId);
    await page.getByLabel('Client secret').fill('not-the-secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('These credentials are not valid');
    await consoleScreenshot(page, 'wrong-credentials');
    await page.close();
  });

  it("offers a workspace reader no change buttons, on a phone's width", async () => {
    const { page, violations } = await openConsole(browser, serverUrl, reader, { width: 360, height: 780 });
    await page.getByRole('link', { name: 'Support team' }).click();
    await page.getByRole('heading', { name: 'Support team', level: 1 }).waitFor();
    await page.getByText('Chat to tables').waitFor();
    await page.getByText('Team chat', { exact: true }).waitFor();
    for (const name of [/Run sync/, /Disable/, /Enable/, /Refresh/, /Clear/, /Create/, /Delete/]) {
      expect(await page.getByRole('button', { name }).count(), String(name)).toBe(0);
    }
    // Nothing wider than the phone: no sideways scrolling of the page.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await consoleScreenshot(page, 'reader-workspace');
    expect(violations).toEqual([]);
    await page.close();
  });

  it('shows an admin the change buttons of the same workspace', async () => {
    const { page } = await openConsole(browser, serverUrl, fx);
    await page.getByRole('link', { name: 'Support team' }).click();
    await page.getByRole('button', { name: 'Run sync of Chat to tables' }).waitFor();
    await page.getByRole('button', { name: 'Disable Chat to tables' }).waitFor();
    await consoleScreenshot(page, 'admin-workspace');
    await page.close();
  });
});

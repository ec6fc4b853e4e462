import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, freePort, launchBrowser } from '../helpers/browser.ts';
import { slackSourceConfiguration } from '../helpers/chat-fixture.ts';
import { consoleScreenshot } from '../helpers/console-browser.ts';
import { bearer, startHostedFixture, type HostedFixture } from '../helpers/hosted-fixture.ts';

/** What has focus: its tag, its accessible text, and whether a focus ring is drawn around it. */
interface Focused {
  tag: string;
  text: string;
  outline: string;
}

const focused = (page: Page) =>
  page.evaluate((): Focused | undefined => {
    const element = document.activeElement;
    if (!element || element === document.body) return undefined;
    const style = getComputedStyle(element);
    const visible = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    const label = element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : undefined;
    return {
      tag: element.tagName.toLowerCase(),
      text: (label ?? element.getAttribute('aria-label') ?? element.textContent ?? '').trim(),
      outline: visible ? `${style.outlineStyle} ${style.outlineWidth}` : 'none',
    };
  });

/**
 * Presses Tab (or Shift+Tab) until the focused element's text matches, at most `max` times; every
 * element focused on the way must show its focus ring.
 */
async function tabTo(page: Page, wanted: RegExp, { backwards = false, max = 80 } = {}): Promise<Focused> {
  for (let step = 0; step < max; step++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    const now = await focused(page);
    if (!now) continue;
    expect(now.outline, `focus ring on <${now.tag}> "${now.text}"`).not.toBe('none');
    if (wanted.test(now.text)) return now;
  }
  throw new Error(`no focusable element matching ${wanted} within ${max} ${backwards ? 'Shift+Tab' : 'Tab'} presses`);
}

/** The console driven by keyboard alone: sign in, open a workspace and its connection, run a sync; focus visible at each step. */
describe.skipIf(!browserAvailable())('console by keyboard alone', { timeout: 90_000 }, () => {
  let fx: HostedFixture;
  let browser: Browser;
  let serverUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    serverUrl = `http://127.0.0.1:${port}`;
    fx = await startHostedFixture('sqlite', { port, config: { publicUrl: serverUrl } });
    const headers = bearer(await fx.operatorToken());
    const post = async (path: string, json: object) => JSON.parse((await fx.http.post(path, { headers, json })).body);
    const { workspaceId } = await post('v1/workspaces', { name: 'Keys' });
    const { sourceId } = await post('v1/sources', { name: 'Slack sandbox', workspaceId, configuration: slackSourceConfiguration() });
    const { destinationId } = await post('v1/destinations', { name: 'Local tables', workspaceId, configuration: { destinationType: 'sqlite' } });
    const connection = await post('v1/connections', {
      name: 'Keyboard sync',
      sourceId,
      destinationId,
      configurations: { streams: [{ name: 'users', syncMode: 'full_refresh_overwrite' }] },
      schedule: { scheduleType: 'manual' },
    });
    expect(connection.connectionId).toEqual(expect.any(String));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('signs in, opens a workspace and a connection, and runs a sync with Tab, Shift+Tab, Enter and Space only', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${serverUrl}/console`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();

    // Sign in: tab to each field, type, and submit with Enter.
    await tabTo(page, /^Client id$/);
    await page.keyboard.type(fx.clientId);
    await tabTo(page, /^Client secret$/);
    await page.keyboard.type(fx.clientSecret);
    // Back and forth: Shift+Tab returns to the client id, Tab to the secret.
    await tabTo(page, /^Client id$/, { backwards: true });
    await tabTo(page, /^Client secret$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Workspaces', level: 1 }).waitFor();

    // The workspace, by its link (Enter follows a link).
    await tabTo(page, /^Keys/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Keys', level: 1 }).waitFor();

    // The connection's own page, by its link in the workspace's list.
    await tabTo(page, /^Keyboard sync$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Keyboard sync', level: 1 }).waitFor();

    // Run its sync with Space (a button's own key), landing on the job's page.
    const button = await tabTo(page, /^Run sync of Keyboard sync$/);
    expect(button.tag).toBe('button');
    await consoleScreenshot(page, 'keyboard-run-sync-focused');
    await page.keyboard.press('Space');
    await page.getByRole('heading', { name: /^Job \d+$/, level: 1 }).waitFor();
    // The new view's heading takes focus, and the next Tab lands on something with a visible ring.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await tabTo(page, /./);
    await expect.poll(() => page.locator('.facts .badge').first().textContent(), { timeout: 30_000 }).toBe('succeeded');
    await page.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, freePort, launchBrowser } from '../helpers/browser.ts';
import { consoleScreenshot, openConsole } from '../helpers/console-browser.ts';
import { startHostedFixture, type HostedFixture } from '../helpers/hosted-fixture.ts';
import { registerSlackApp, revokedSlackSource } from '../helpers/oauth-source.ts';
import { plainPublicApi } from '../helpers/public-api-calls.ts';

/** A source whose token refresh failed for good, reconnected from the console through the Slack sandbox's consent page. */
describe.skipIf(!browserAvailable())('console reconnects in a browser', { timeout: 90_000 }, () => {
  let fx: HostedFixture;
  let browser: Browser;
  let serverUrl: string;
  let api: Awaited<ReturnType<typeof plainPublicApi>>;
  let workspaceId: string;

  beforeAll(async () => {
    const port = await freePort();
    serverUrl = `http://127.0.0.1:${port}`;
    // The OAuth callback is at the public URL: the browser must reach it.
    fx = await startHostedFixture('sqlite', { port, config: { publicUrl: serverUrl } });
    api = await plainPublicApi(fx);
    await registerSlackApp(api.call);
    ({ workspaceId } = await api.call('post', 'v1/workspaces', { name: 'Marketing' }));
    await revokedSlackSource(fx, api.call, workspaceId, 'Slack of Ada');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('marks the source, sends the operator to the consent page, and gives the source the new grant', async () => {
    const { page, violations } = await openConsole(browser, serverUrl, fx);
    await page.getByRole('link', { name: 'Marketing' }).click();
    await page.getByText('needs re-authorization').waitFor();
    await consoleScreenshot(page, 'source-needs-reauthorization');

    await page.getByRole('button', { name: 'Reconnect Slack of Ada' }).click();
    await page.getByRole('button', { name: 'Allow' }).click();
    // Whatever the console says back is read, so a failed reconnect shows its message rather than a wait's timeout.
    const notice = page.locator('p.notice[role=status]');
    await notice.waitFor({ timeout: 60_000 });
    expect(await notice.textContent()).toBe('Slack of Ada is reconnected.');
    await page.getByRole('heading', { name: 'Marketing', level: 1 }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await expect.poll(() => page.getByText('needs re-authorization').count()).toBe(0);
    expect((await api.call('get', `v1/workspaces/${workspaceId}/sources_needing_reauthorization`)).data).toEqual([]);
    await consoleScreenshot(page, 'source-reconnected');
    expect(violations).toEqual([]);
  });
});

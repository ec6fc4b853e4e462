import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, freePort, launchBrowser } from '../helpers/browser.ts';
import { consoleScreenshot, openConsole } from '../helpers/console-browser.ts';
import { workspaceReader } from '../helpers/console-session.ts';
import { bearer, startHostedFixture, type HostedFixture } from '../helpers/hosted-fixture.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

/** The console's settings in Chromium: an OAuth app registered and listed, the webhook set and tested with its delivery log, a permission changed; a workspace's notification webhooks. */
describe.skipIf(!browserAvailable())('console settings in a browser', { timeout: 90_000 }, () => {
  let fx: HostedFixture;
  let browser: Browser;
  let serverUrl: string;
  let receiver: WebhookReceiver;
  let reader: Awaited<ReturnType<typeof workspaceReader>>;
  let supportId: string;

  beforeAll(async () => {
    const port = await freePort();
    serverUrl = `http://127.0.0.1:${port}`;
    fx = await startHostedFixture('sqlite', { port, config: { publicUrl: serverUrl } });
    receiver = await WebhookReceiver.start();
    const response = await fx.http.post('v1/workspaces', { headers: bearer(await fx.operatorToken()), json: { name: 'Support' } });
    supportId = JSON.parse(response.body).workspaceId;
    await fx.http.post('v1/workspaces', { headers: bearer(await fx.operatorToken()), json: { name: 'Sales' } });
    reader = await workspaceReader(fx, supportId);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await fx?.close();
  });

  it('registers an OAuth app, sets and tests the webhook, and changes a permission', async () => {
    const { page, violations } = await openConsole(browser, serverUrl, fx);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();

    const register = page.getByRole('form', { name: 'Register an OAuth app for the organization' });
    await register.getByLabel('Source type', { exact: true }).fill('slack');
    await register.getByLabel('Client id').fill('console-app');
    await register.getByLabel('Client secret').fill('console-app-secret');
    await register.getByRole('button', { name: 'Register OAuth app' }).click();
    await page.getByText('The OAuth app for slack of the organization is registered.').waitFor();
    // The list, read from the API, shows the app by its client id, never its secret.
    const app = page.getByRole('table', { name: 'OAuth apps of the organization' }).getByRole('row', { name: /^slack console-app the organization/ });
    await app.waitFor();
    expect(await app.textContent()).toContain('console-app');
    expect(await page.content()).not.toContain('console-app-secret');

    await page.getByText('No webhook yet').waitFor();
    await page.getByLabel('Webhook URL').fill(receiver.url('/hook'));
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByText(/Events go to/).waitFor();
    await page.getByRole('button', { name: 'Send a test message' }).click();
    await receiver.waitFor('/hook');
    const row = page.getByRole('row', { name: /webhook\.test/ });
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('delivered');

    const permission = page.getByRole('combobox', { name: /^Permission of .* in workspace/ });
    expect(await permission.inputValue()).toBe('workspace_reader');
    await permission.selectOption('workspace_runner');
    await expect
      .poll(
        async () =>
          JSON.parse((await fx.http.get(`v1/permissions?userId=${reader.userId}`, { headers: bearer(await fx.operatorToken()) })).body).data[0].permissionType,
      )
      .toBe('workspace_runner');
    await consoleScreenshot(page, 'settings');
    expect(violations).toEqual([]);
  });

  it("registers a workspace's own OAuth app beside the organization's, per workspace, and deletes it", async () => {
    const { page, violations } = await openConsole(browser, serverUrl, fx);
    await page.getByRole('link', { name: 'Settings' }).click();
    const section = page.getByRole('region', { name: "A workspace's own OAuth apps" });
    const register = async (workspace: string, clientId: string) => {
      await section.getByLabel('Workspace', { exact: true }).selectOption({ label: workspace });
      const form = section.getByRole('form', { name: `Register an OAuth app for workspace ${workspace}` });
      await form.getByLabel('Source type', { exact: true }).fill('slack');
      await form.getByLabel('Client id').fill(clientId);
      await form.getByLabel('Client secret').fill(`${clientId}-secret`);
      await form.getByRole('button', { name: 'Register OAuth app' }).click();
      await section.getByText(`The OAuth app for slack of workspace ${workspace} is registered.`).waitFor();
      // Sent once: nothing of it stays in the form.
      expect(await form.getByLabel('Client secret').inputValue()).toBe('');
    };
    await register('Sales', 'sales-app');
    await register('Support', 'support-app');

    // Support's list: its own app, and the organization's that serves it where it has none.
    const table = section.getByRole('table', { name: 'OAuth apps of workspace Support' });
    await table.getByRole('row', { name: /^slack support-app this workspace/ }).waitFor();
    await table.getByRole('row', { name: /^slack console-app the organization/ }).waitFor();
    expect(await table.getByText('sales-app').count()).toBe(0);
    const content = await page.content();
    for (const secret of ['support-app-secret', 'sales-app-secret', 'console-app-secret']) expect(content).not.toContain(secret);
    const listed = JSON.parse((await fx.http.get(`v1/workspaces/${supportId}/oauthCredentials`, { headers: bearer(await fx.operatorToken()) })).body).data;
    expect(listed.filter((app: { owner: string }) => app.owner === 'workspace')).toMatchObject([{ name: 'slack', clientId: 'support-app' }]);
    await consoleScreenshot(page, 'workspace-oauth-apps');

    // The organization's row offers no delete here; the workspace's own does.
    expect(await table.getByRole('button').count()).toBe(1);
    await table.getByRole('button', { name: 'Delete the slack app of workspace Support' }).click();
    await section.getByText('The OAuth app for slack of workspace Support is deleted.').waitFor();
    await expect.poll(() => table.getByRole('row', { name: /support-app/ }).count()).toBe(0);
    await table.getByRole('row', { name: /^slack console-app the organization/ }).waitFor();
    await section.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Sales' });
    await section
      .getByRole('table', { name: 'OAuth apps of workspace Sales' })
      .getByRole('row', { name: /^slack sales-app this workspace/ })
      .waitFor();
    expect(violations).toEqual([]);
    await page.close();
  });

  it("sets a workspace's notification webhook, tests it and reads its delivery log", async () => {
    const { page, violations } = await openConsole(browser, serverUrl, fx);
    await page.getByRole('link', { name: 'Support' }).click();
    await page.getByRole('heading', { name: 'Notifications', level: 2 }).waitFor();
    await page.getByText('No notification webhook yet').waitFor();
    const url = receiver.url('/workspace-hook/with-a-secret-path');
    await page.getByRole('checkbox', { name: 'Send a webhook on failure' }).check();
    await page.getByLabel('Webhook URL for failure').fill(url);
    await page.getByRole('button', { name: 'Save notifications' }).click();
    // Answered masked past the host: the path (a credential, as a Slack webhook's) is nowhere in the page.
    const shown = page.getByRole('listitem').filter({ hasText: 'A sync fails' });
    await expect.poll(() => shown.textContent()).toContain(`${new URL(url).origin}/`);
    expect(await page.content()).not.toContain('with-a-secret-path');
    expect(await page.getByRole('checkbox', { name: 'Send a webhook on failure' }).isChecked()).toBe(true);
    // A second save sends the masked URL back, which keeps the stored one.
    const saved = page.waitForResponse((response) => response.request().method() === 'PATCH');
    await page.getByRole('button', { name: 'Save notifications' }).click();
    expect((await saved).status()).toBe(200);
    await page.getByLabel('Event to test').selectOption('failure');
    await page.getByRole('button', { name: 'Send a test notification' }).click();
    await receiver.waitFor('/workspace-hook/with-a-secret-path');
    const row = page.getByRole('row', { name: /^failure/ });
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('delivered');
    await consoleScreenshot(page, 'workspace-notifications');
    expect(violations).toEqual([]);
  });

  it('shows a reader the settings without their change controls', async () => {
    const { page } = await openConsole(browser, serverUrl, reader);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByText('Only an administrator of the organization registers them.').waitFor();
    await page.getByText('Only an administrator of workspace Support registers them.').waitFor();
    expect(await page.getByRole('table', { name: /^OAuth apps of/ }).count()).toBe(0);
    for (const name of [/Register/, /Delete/, /Save webhook/, /Send a test/]) expect(await page.getByRole('button', { name }).count(), String(name)).toBe(0);
    // The workspace picker only chooses what to read; no permission is offered to change.
    expect(await page.getByRole('combobox', { name: /^Permission/ }).count()).toBe(0);
    await consoleScreenshot(page, 'settings-reader');
    await page.getByRole('link', { name: 'Workspaces' }).click();
    await page.getByRole('link', { name: 'Support' }).click();
    await page.getByText('Only an administrator of the workspace changes them.').waitFor();
    await page.getByRole('row', { name: /^failure/ }).waitFor();
    expect(await page.getByRole('button', { name: /Save notifications|Send a test/ }).count()).toBe(0);
  });
});

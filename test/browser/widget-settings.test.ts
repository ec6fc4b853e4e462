import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import type { ConnectorDefinition } from '../../core/sdk/index.ts';
import { startOperatorPage, type OperatorPage } from '../../scripts/operator-page.ts';
import { browserAvailable, freePort, launchBrowser, SCREENSHOT_DIR } from '../helpers/browser.ts';
import { bearer, startHostedFixture, type HostedFixture } from '../helpers/hosted-fixture.ts';

/**
 * The widget's form for what a connector type declares beyond the built-ins: a settings schema with
 * defaults and a `date`, an icon given inline, none at all. Two types registered on the running
 * server stand for a third-party connector (no credential check: nothing leaves the machine).
 */

const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="4" fill="#1e6b35"/></svg>';

const calendar: ConnectorDefinition = {
  type: 'calendar',
  displayName: 'Calendar',
  icon: `data:image/svg+xml,${encodeURIComponent(ICON)}`,
  auth: { token: { header: 'Authorization', scheme: 'Bearer' } },
  defaultBaseUrl: 'https://calendar.example.test',
  transport: { timeoutMs: 1000, maxRetries: 0, maxRetryAfterSeconds: 1, errors: { codePath: 'error', statusByCode: {} } },
  replicationConfig: {
    type: 'object',
    properties: {
      since: { title: 'First day', type: 'string', format: 'date', description: 'The first day to read, YYYY-MM-DD' },
      lookback_window: { title: 'Lookback window (days)', type: 'integer', minimum: 0, maximum: 365, default: 7 },
      declined: { title: 'Include declined events', type: 'boolean', default: true },
    },
    required: ['since', 'lookback_window'],
    additionalProperties: false,
  },
  actions: [
    {
      entity: 'events',
      action: 'list',
      description: 'List events.',
      params: { type: 'object', properties: {} },
      record: { type: 'object' },
      request: { method: 'GET', path: '/events' },
      response: { records: 'items' },
    },
  ],
};
/** A type that declares no icon and no settings. */
const notes: ConnectorDefinition = { ...calendar, type: 'notes', displayName: 'Notes', icon: undefined, replicationConfig: undefined };

describe.skipIf(!browserAvailable())("the widget's form for a type's own settings and icon", { timeout: 90_000 }, () => {
  let fx: HostedFixture;
  let host: OperatorPage;
  let browser: Browser;
  let workspaces = 0;

  beforeAll(async () => {
    const port = await freePort();
    fx = await startHostedFixture('sqlite', { port, config: { publicUrl: `http://127.0.0.1:${port}` } });
    for (const definition of [calendar, notes]) fx.server.hosted.runtime.registerConnector(definition);
    const operator = await fx.operatorToken();
    for (const [name, type] of [
      ['Team calendar', 'calendar'],
      ['Team notes', 'notes'],
    ]) {
      const created = await fx.http.post('api/v1/integrations/templates/sources', { headers: bearer(operator), json: { name, connector_type: type } });
      expect(created.statusCode, created.body).toBe(201);
    }
    host = await startOperatorPage({ plugboardUrl: fx.server.url, clientId: fx.clientId, clientSecret: fx.clientSecret, workspaceName: 'unused' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await fx?.close();
  });

  /** The widget of a workspace of its own, on the calendar template's form. */
  async function calendarForm() {
    const workspace = `settings-ws-${++workspaces}`;
    const page = await browser.newPage({ locale: 'en-US' });
    await page.goto(`${host.url}/?${new URLSearchParams({ workspace })}`);
    await page.getByRole('button', { name: 'Connect your data' }).click();
    const widget = page.frameLocator('dialog iframe');
    await widget.getByRole('button', { name: /^Team calendar/ }).click();
    return { page, widget, workspace };
  }
  const hintOf = async (input: Locator) => {
    const [hint] = (await input.getAttribute('aria-describedby'))!.split(' ');
    return input.page().frameLocator('dialog iframe').locator(`[id="${hint}"]`).textContent();
  };

  it("prefills a new source's settings with their schema defaults, and sends them", async () => {
    const { page, widget, workspace } = await calendarForm();
    expect(await widget.getByLabel('Lookback window (days)').inputValue()).toBe('7');
    expect(await widget.getByLabel('Include declined events').isChecked()).toBe(true);
    expect(await widget.getByLabel('First day').inputValue()).toBe('');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/settings-defaults.png` });
    await widget.getByLabel('Source name').fill('Our calendar');
    await widget.getByLabel('Token').fill('calendar-token');
    await widget.getByLabel('First day').fill('2024-01-31');
    await widget.getByRole('button', { name: 'Connect', exact: true }).click();
    await widget.getByText('Connected Our calendar.').waitFor();
    const listed = await fx.http.get('api/v1/embedded/sources', { headers: bearer(await fx.scopedToken(workspace)) });
    expect(JSON.parse(listed.body).data.map((source: { replication_config: unknown }) => source.replication_config)).toEqual([
      { since: '2024-01-31', lookback_window: 7, declined: true },
    ]);
    // Editing starts from what the source has, not from the defaults.
    await widget.getByRole('button', { name: 'Edit Our calendar' }).click();
    expect(await widget.getByLabel('First day').inputValue()).toBe('2024-01-31');
    await page.close();
  });

  it("gives a `date` the browser's date control, its hint in that control's format", async () => {
    const { page, widget } = await calendarForm();
    const since = widget.getByLabel('First day');
    expect(await since.getAttribute('type')).toBe('date');
    expect(await hintOf(since)).toBe('The first day to read. Enter it as MM/DD/YYYY.');
    await page.close();
  });

  it('serves an icon a definition gives inline, and a generic one to a type that declares none', async () => {
    const { page, widget } = await calendarForm();
    await widget.getByRole('button', { name: 'Cancel' }).click();
    const icons = widget.locator('ul.templates img');
    await expect
      .poll(() => icons.evaluateAll((images: HTMLImageElement[]) => images.map((image) => [image.getAttribute('src'), image.naturalWidth > 0])))
      .toEqual([
        ['/embedded-widget/icons/calendar.svg', true],
        ['/embedded-widget/icons/notes.svg', true],
      ]);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/settings-icons.png` });
    expect((await fx.http.get('embedded-widget/icons/calendar.svg')).body).toBe(ICON);
    expect((await fx.http.get('embedded-widget/icons/notes.svg')).body).toBe(
      readFileSync(new URL('../../widget/page/connector-icon.svg', import.meta.url), 'utf8'),
    );
    await page.close();
  });

  it('refuses at load an icon the server could not serve: not an SVG, or a file name it cannot place', () => {
    for (const icon of ['data:image/png;base64,AAAA', 'icon.svg', '/abs/icon.png']) {
      expect(() => fx.server.hosted.runtime.registerConnector({ ...calendar, type: 'badicon', icon })).toThrow(/`icon` must be a data:image\/svg\+xml URI/);
    }
  });
});

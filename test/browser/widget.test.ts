import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { startOperatorPage, type OperatorPage } from '../../scripts/operator-page.ts';
import { browserAvailable, freePort, launchBrowser, SCREENSHOT_DIR } from '../helpers/browser.ts';
import { CHAT_TOKEN } from '../helpers/chat-fixture.ts';
import { DRIVE_TOKEN } from '../helpers/drive-fixture.ts';
import { bearer, startHostedFixture, type HostedFixture } from '../helpers/hosted-fixture.ts';

/**
 * The embedded widget end to end, in headless Chromium: the sample operator page on one loopback
 * origin embeds the widget served by the Plugboard server on another, as an operator's app would.
 */

/** The servers' clock runs this far from the browser's: a test moves it to issue tokens that are already near their end. */
let clockOffsetMs = 0;
const TOKEN_LIFETIME_MS = 1200_000;

describe.skipIf(!browserAvailable())('embedded widget in a browser', { timeout: 90_000 }, () => {
  let fx: HostedFixture;
  let host: OperatorPage;
  let browser: Browser;
  let serverUrl: string;
  let workspaces = 0;

  beforeAll(async () => {
    const port = await freePort();
    serverUrl = `http://127.0.0.1:${port}`;
    fx = await startHostedFixture('sqlite', { port, config: { publicUrl: serverUrl }, clock: () => Date.now() + clockOffsetMs });
    const operator = await fx.operatorToken();
    for (const [name, connectorType, tags] of [
      ['Team chat', 'chat', ['chat', 'team']],
      ['Shared files', 'file-storage', ['files', 'team']],
      ['Internal chat', 'chat', ['chat', 'internal']],
    ] as const) {
      const response = await fx.http.post('api/v1/integrations/templates/sources', {
        headers: bearer(operator),
        json: { name, connector_type: connectorType, tags },
      });
      expect(response.statusCode).toBe(201);
    }
    host = await startOperatorPage({ plugboardUrl: serverUrl, clientId: fx.clientId, clientSecret: fx.clientSecret, workspaceName: 'unused' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await fx?.close();
  });

  /** The operator page for a workspace of its own, its widget open and listing what it offers (`locale`: the browser's, default en-US). */
  async function openWidget(query: Record<string, string> = {}, viewport = { width: 1280, height: 900 }, locale = 'en-US') {
    const workspace = `browser-ws-${++workspaces}`;
    const page = await browser.newPage({ viewport, locale });
    await page.goto(`${host.url}/?${new URLSearchParams({ workspace, ...query })}`);
    await page.getByRole('button', { name: 'Connect your data' }).click();
    const widget = page.frameLocator('dialog iframe');
    await widget.getByRole('heading', { name: 'Add a source' }).waitFor();
    return { page, widget, workspace, frame: widgetFrame(page) };
  }

  /** The button of a template, by its exact name (names may contain one another). */
  const templateButton = (widget: FrameLocator, name: string) =>
    widget.locator('ul.templates button', { has: widget.locator('.name', { hasText: new RegExp(`^${name}$`) }) });
  /** Both types connect by consent first: their token form is behind "Use a token instead". */
  const useToken = (widget: FrameLocator) => widget.getByRole('button', { name: 'Use a token instead' }).click();
  const widgetFrame = (page: Page): Frame => page.frames().find((frame) => frame.url().startsWith(`${serverUrl}/embedded-widget`))!;
  const hostState = (page: Page) =>
    page.evaluate(() => {
      const state = (window as unknown as { plugboardDemo: { events: unknown[]; tokenRequests: number } }).plugboardDemo;
      return { events: state.events, tokenRequests: state.tokenRequests };
    });
  const screenshot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png` });
  /** The text of an input's hint (the first element describing it) or of its error line (the last, once shown). */
  const describing = async (input: Locator, which: 'hint' | 'error') => {
    const ids = (await input.getAttribute('aria-describedby'))!.split(' ');
    return input
      .page()
      .frameLocator('dialog iframe')
      .locator(`[id="${which === 'hint' ? ids[0] : ids.at(-1)}"]`)
      .textContent();
  };
  /** Opens the chat template and fills its form, with a token; a setting not given is left empty. */
  async function fillChat(widget: FrameLocator, values: { name: string; token: string; start?: string; lookback?: string }): Promise<void> {
    await templateButton(widget, 'Team chat').click();
    await widget.getByLabel('Source name').fill(values.name);
    await useToken(widget);
    await widget.getByLabel('OAuth: Access token').fill(values.token);
    if (values.start !== undefined) await widget.getByLabel('Start date (UTC)').fill(values.start);
    if (values.lookback !== undefined) await widget.getByLabel('Lookback window (days)').fill(values.lookback);
  }
  const sourcesOf = async (workspace: string) =>
    JSON.parse((await fx.http.get('api/v1/embedded/sources', { headers: bearer(await fx.scopedToken(workspace)) })).body).data as Array<
      Record<string, unknown>
    >;

  /**
   * What Airbyte's EmbeddedWidget does, written by hand in the page: frame widgetUrl in a dialog,
   * answer each auth_token_request with {scopedAuthToken} to the iframe's origin (the n-th request with
   * `answers[n]`, the last one from then on), close on CLOSE_DIALOG, keep the {type} messages.
   */
  async function handwrittenHost(page: Page, widgetUrl: string, answers: string[]): Promise<void> {
    await page.evaluate(
      ([url, tokens]) => {
        const origin = new URL(url).origin;
        const dialog = document.createElement('dialog');
        const iframe = document.createElement('iframe');
        iframe.src = url;
        iframe.style.cssText = 'width: 480px; height: 700px; border: 0';
        dialog.append(iframe);
        document.body.append(dialog);
        const state = { seen: [] as unknown[], requests: 0 };
        (window as unknown as { handwritten: typeof state }).handwritten = state;
        window.addEventListener('message', (event) => {
          if (event.origin !== origin || event.source !== iframe.contentWindow) return;
          if (event.data === 'auth_token_request') {
            const token = tokens[Math.min(state.requests++, tokens.length - 1)];
            iframe.contentWindow!.postMessage({ scopedAuthToken: token }, origin);
          } else if (event.data === 'CLOSE_DIALOG') dialog.close();
          else if (event.data && typeof event.data === 'object' && event.data.type) state.seen.push(event.data);
        });
        dialog.showModal();
      },
      [widgetUrl, answers] as const,
    );
  }
  const handwritten = (page: Page) => page.evaluate(() => (window as unknown as { handwritten: { seen: unknown[]; requests: number } }).handwritten);
  /** A widget token from the operator page's backend, decoded. */
  const issueWidgetToken = async (page: Page, workspace: string) => {
    const { token } = await page.evaluate(async (name) => (await fetch(`/widget-token?workspace=${name}`)).json(), workspace);
    return JSON.parse(Buffer.from(token, 'base64').toString()) as { token: string; widgetUrl: string };
  };

  it("completes the flow with a host written by hand against Airbyte's widget protocol", async () => {
    const page = await browser.newPage();
    await page.goto(`${host.url}/`);
    const workspace = `browser-ws-${++workspaces}`;
    const { token, widgetUrl } = await issueWidgetToken(page, workspace);
    await handwrittenHost(page, widgetUrl, [token]);
    const widget = page.frameLocator('dialog iframe');
    await templateButton(widget, 'Shared files').click();
    await widget.getByLabel('Source name').fill('Drive via a handwritten host');
    await useToken(widget);
    await widget.getByLabel('OAuth: Access token').fill(DRIVE_TOKEN);
    await widget.getByRole('button', { name: 'Connect', exact: true }).click();
    await widget.getByText('Connected Drive via a handwritten host.').waitFor();
    expect((await handwritten(page)).seen).toEqual([
      expect.objectContaining({
        type: 'end_user_action_result',
        message: 'source_created',
        data: expect.objectContaining({ name: 'Drive via a handwritten host' }),
      }),
    ]);
    expect((await sourcesOf(workspace)).map((s) => s.name)).toEqual(['Drive via a handwritten host']);
    await screenshot(page, 'handwritten-host');
    await widget.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.evaluate(() => document.querySelector('dialog')?.open)).toBe(false);
    await page.close();
  });

  it('asks again for a token the server refuses (401) and goes on with the next one', async () => {
    const page = await browser.newPage();
    await page.goto(`${host.url}/`);
    const { token, widgetUrl } = await issueWidgetToken(page, `browser-ws-${++workspaces}`);
    // Unexpired by its claims, but its signature is broken: the server answers 401.
    const [header, payload, signature] = token.split('.');
    const broken = `${header}.${payload}.${signature!.slice(0, -4)}AAAA`;
    await handwrittenHost(page, widgetUrl, [broken, token]);
    const widget = page.frameLocator('dialog iframe');
    await widget.getByRole('heading', { name: 'Add a source' }).waitFor();
    expect((await handwritten(page)).requests).toBeGreaterThanOrEqual(2);
    await page.close();
  });

  it('does the handshake: asks the host for the token, uses it, and lists the templates with their connector types', async () => {
    const { page, widget } = await openWidget();
    expect((await hostState(page)).tokenRequests).toBeGreaterThanOrEqual(1);
    const templates = widget.locator('ul.templates button');
    await expect
      .poll(() => templates.allInnerTexts())
      .toEqual([
        expect.stringMatching(/Team chat\s+Team chat \(Slack Web API\)/),
        expect.stringMatching(/Shared files\s+File storage/),
        expect.stringMatching(/Internal chat\s+Team chat/),
      ]);
    await expect.poll(() => widget.getByText('No source connected yet.').isVisible()).toBe(true);
    // No token in the URL, cookies or storage.
    const frame = widgetFrame(page);
    expect(frame.url()).not.toMatch(/token|eyJ/i);
    expect(await frame.evaluate(() => [document.cookie, localStorage.length, sessionStorage.length])).toEqual(['', 0, 0]);
    // The host script listens to its own iframe only: a frame of another origin gets no event through.
    const otherOrigin = host.url.replace('127.0.0.1', 'localhost');
    await page.evaluate((src) => {
      const other = document.createElement('iframe');
      other.src = src;
      document.body.append(other);
    }, `${otherOrigin}/nothing-here`);
    await expect.poll(() => page.frames().some((candidate) => candidate.url().startsWith(otherOrigin))).toBe(true);
    await page
      .frames()
      .find((candidate) => candidate.url().startsWith(otherOrigin))!
      .evaluate(() => window.parent.postMessage({ type: 'end_user_action_result', message: 'source_created', data: { name: 'forged' } }, '*'));
    await page.waitForTimeout(500);
    expect((await hostState(page)).events).toEqual([]);
    await screenshot(page, 'handshake');
    await page.close();
  });

  it('ignores a token posted from another origin, and takes it from the allowed one', async () => {
    const page = await browser.newPage();
    await page.goto(`${host.url}/`);
    const { token, widgetUrl } = await issueWidgetToken(page, 'origin-check');
    const otherOrigin = host.url.replace('127.0.0.1', 'localhost');
    // A widget nobody answers for, and a frame of another origin beside it.
    await page.evaluate(
      ([url, other]) => {
        document.body.replaceChildren();
        for (const [id, src] of [
          ['widget', url],
          ['other', `${other}/nothing-here`],
        ]) {
          const frame = document.createElement('iframe');
          frame.id = id!;
          frame.src = src!;
          document.body.append(frame);
        }
      },
      [widgetUrl, otherOrigin],
    );
    const widget = page.frameLocator('#widget');
    await widget.getByText('Waiting for the app to sign you in…').waitFor();
    const other = page.frames().find((frame) => frame.url().startsWith(otherOrigin))!;
    await other.evaluate((scoped) => window.parent.frames[0]!.postMessage({ scopedAuthToken: scoped }, '*'), token);
    await page.waitForTimeout(1000);
    expect(await widget.getByRole('heading', { name: 'Add a source' }).count()).toBe(0);
    await screenshot(page, 'wrong-origin-ignored');
    await page.evaluate(
      ([scoped, origin]) => (document.getElementById('widget') as HTMLIFrameElement).contentWindow!.postMessage({ scopedAuthToken: scoped }, origin!),
      [token, new URL(widgetUrl).origin],
    );
    await widget.getByRole('heading', { name: 'Add a source' }).waitFor();
    await page.close();
  });

  it('cannot be framed by a page of another origin (frame-ancestors)', async () => {
    const page = await browser.newPage();
    await page.goto(`${host.url}/`);
    const { widgetUrl } = await issueWidgetToken(page, 'framing');
    const response = await fx.http.get(new URL(widgetUrl).pathname.slice(1) + new URL(widgetUrl).search);
    expect(response.headers['content-security-policy']).toContain(`frame-ancestors ${host.url}`);
    const otherOrigin = host.url.replace('127.0.0.1', 'localhost');
    await page.goto(`${otherOrigin}/`);
    await page.evaluate((url) => {
      const frame = document.createElement('iframe');
      frame.src = url;
      document.body.append(frame);
    }, widgetUrl);
    await page.waitForTimeout(1500);
    const framed = page.frames().find((frame) => frame !== page.mainFrame());
    expect(framed).toBeDefined();
    expect(await page.frameLocator('body > iframe').getByRole('heading', { name: 'Connect a data source' }).count()).toBe(0);
    await screenshot(page, 'framing-refused');
    await page.close();
  });

  it('offers the templates its tags allow, in any and all modes', async () => {
    for (const [query, expected] of [
      [{ tags: 'chat,team', mode: 'all' }, ['Team chat']],
      [{ tags: 'files,internal', mode: 'any' }, ['Shared files', 'Internal chat']],
    ] as const) {
      const { page, widget } = await openWidget(query);
      await expect.poll(() => widget.locator('ul.templates button .name').allInnerTexts()).toEqual(expected);
      await screenshot(page, `tags-${query.mode}`);
      await page.close();
    }
  });

  it('creates a chat source and a file-storage source; the host is told, and both run against the sandboxes', async () => {
    const { page, widget, workspace } = await openWidget({ tags: 'team' });
    await templateButton(widget, 'Team chat').click();
    await widget.getByLabel('Source name').fill('Our Slack');
    await useToken(widget);
    await widget.getByLabel('Personal access token', { exact: true }).check();
    await widget.getByLabel('Personal access token: Token').fill(CHAT_TOKEN);
    await widget.getByLabel('Start date (UTC)').fill('2024-01-01T00:00:00');
    await widget.getByLabel('Lookback window (days)').fill('14');
    await widget.getByLabel('Join channels').check();
    // The schema's types became the inputs: a UTC date and time, a number within 0-365, a checkbox.
    const inputOf = (label: string) => widget.getByLabel(label).evaluate((input: HTMLInputElement) => [input.type, input.min, input.max]);
    expect(await inputOf('Start date (UTC)')).toEqual(['datetime-local', '', '']);
    expect(await inputOf('Lookback window (days)')).toEqual(['number', '0', '365']);
    expect(await inputOf('Join channels')).toEqual(['checkbox', '', '']);
    expect(await inputOf('Personal access token: Token')).toEqual(['password', '', '']);
    await screenshot(page, 'chat-form');
    await widget.getByRole('button', { name: 'Connect', exact: true }).click();
    await widget.getByText('Connected Our Slack.').waitFor();

    await templateButton(widget, 'Shared files').click();
    await widget.getByLabel('Source name').fill('Our Drive');
    await useToken(widget);
    await widget.getByLabel('OAuth: Access token').fill(DRIVE_TOKEN);
    expect(await widget.getByText('Sync settings').count()).toBe(0);
    await widget.getByRole('button', { name: 'Connect', exact: true }).click();
    await widget.getByText('Connected Our Drive.').waitFor();
    await expect.poll(() => widget.locator('ul.sources .name').allInnerTexts()).toEqual(['Our Slack', 'Our Drive']);
    await screenshot(page, 'sources-created');

    const { events } = await hostState(page);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'end_user_action_result',
        message: 'source_created',
        data: expect.objectContaining({ name: 'Our Slack', connector_type: 'chat' }),
      }),
      expect.objectContaining({
        type: 'end_user_action_result',
        message: 'source_created',
        data: expect.objectContaining({ name: 'Our Drive', connector_type: 'file-storage' }),
      }),
    ]);
    expect(JSON.stringify(events)).not.toContain(CHAT_TOKEN);
    const sources = await sourcesOf(workspace);
    expect(sources.map((s) => [s.name, s.connector_type, s.replication_config])).toEqual([
      ['Our Slack', 'chat', { start_date: '2024-01-01T00:00:00Z', lookback_window: 14, join_channels: true }],
      ['Our Drive', 'file-storage', null],
    ]);
    const scoped = await fx.scopedToken(workspace);
    const execute = (id: unknown, entity: string, params: Record<string, unknown>) =>
      fx.http.post(`api/v1/connectors/sources/${id}/execute`, { headers: bearer(scoped), json: { entity, action: 'list', params } });
    for (const [source, entity, params] of [
      [sources[0]!, 'users', { limit: 3 }],
      [sources[1]!, 'files', { pageSize: 3 }],
    ] as const) {
      const response = await execute(source.id, entity, params);
      expect(response.statusCode, response.body).toBe(200);
      expect(JSON.parse(response.body).result.length).toBeGreaterThan(0);
    }
    await page.close();
  });

  it('shows a 422 beside its field, announced, and tells the host', async () => {
    const { page, widget } = await openWidget();
    await templateButton(widget, 'Team chat').click();
    await widget.getByLabel('Source name').fill('Too far back');
    await useToken(widget);
    await widget.getByLabel('OAuth: Access token').fill(CHAT_TOKEN);
    await widget.getByLabel('Start date (UTC)').fill('2024-01-01T00:00:00');
    await widget.getByLabel('Lookback window (days)').fill('400');
    await widget.getByRole('button', { name: 'Connect', exact: true }).click();
    const lookback = widget.getByLabel('Lookback window (days)');
    await expect.poll(() => lookback.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await lookback.getAttribute('aria-describedby'))!.split(' ');
    const errorText = await widget.locator(`[id="${describedBy.at(-1)}"]`).textContent();
    expect(errorText).toMatch(/365/);
    expect(await lookback.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await widget.getByRole('alert').textContent()).toContain('Lookback window (days)');
    expect(await widget.getByLabel('Source name').getAttribute('aria-invalid')).toBeNull();
    await screenshot(page, 'validation-error');
    const { events } = await hostState(page);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'end_user_action_result',
        message: 'source_create_error',
        error: { error_code: 'validation_error', detail: [expect.objectContaining({ loc: ['body', 'replication_config', 'lookback_window'] })] },
      }),
    ]);
    await page.close();
  });

  it('updates a source: new settings, and new credentials once the upstream accepts them', async () => {
    const { page, widget, workspace } = await openWidget({ tags: 'team' });
    await templateButton(widget, 'Team chat').click();
    await widget.getByLabel('Source name').fill('Chat to edit');
    await useToken(widget);
    await widget.getByLabel('OAuth: Access token').fill(CHAT_TOKEN);
    await widget.getByLabel('Start date (UTC)').fill('2024-01-01T00:00:00');
    await widget.getByLabel('Lookback window (days)').fill('7');
    await widget.getByRole('button', { name: 'Connect', exact: true }).click();
    await widget.getByRole('button', { name: 'Edit Chat to edit' }).click();
    expect(await widget.getByLabel('Lookback window (days)').inputValue()).toBe('7');
    // Chrome shows whole minutes without their zero seconds.
    expect(await widget.getByLabel('Start date (UTC)').inputValue()).toMatch(/^2024-01-01T00:00(:00)?$/);
    await widget.getByLabel('Lookback window (days)').fill('30');
    await widget.getByLabel('Join channels').check();
    await screenshot(page, 'edit-form');
    // A refused token first: shown beside the credentials, the host told, nothing saved.
    await widget.getByLabel('OAuth: Access token').fill('xoxb-refused');
    await widget.getByRole('button', { name: 'Save' }).click();
    const credential = widget.getByLabel('OAuth: Access token');
    await expect.poll(() => credential.getAttribute('aria-invalid')).toBe('true');
    expect((await hostState(page)).events.at(-1)).toMatchObject({ message: 'source_update_error', error: { error_code: 'credentials_rejected' } });
    expect(JSON.stringify((await hostState(page)).events)).not.toContain('xoxb-refused');
    await screenshot(page, 'credentials-refused');
    await credential.fill(CHAT_TOKEN);
    await widget.getByRole('button', { name: 'Save' }).click();
    await widget.getByText('Saved Chat to edit.').waitFor();
    const { events } = await hostState(page);
    expect(events.at(-1)).toMatchObject({
      message: 'source_updated',
      data: { name: 'Chat to edit', replication_config: { lookback_window: 30, join_channels: true } },
    });
    const [stored] = await sourcesOf(workspace);
    expect(stored).toMatchObject({ auth_type: 'oauth', replication_config: { start_date: '2024-01-01T00:00:00Z', lookback_window: 30, join_channels: true } });
    await page.close();
  });

  it('asks again when its token expired, and goes on once the host calls updateToken', async () => {
    // A token issued by a clock set back: it expires 20 s from now, and the widget stops using it 10 s
    // before, which leaves a loaded machine time to open the widget with it.
    clockOffsetMs = -(TOKEN_LIFETIME_MS - 20_000);
    const { page, widget } = await openWidget();
    // Issued before now: 10.5 s from now it is past the widget's cut-off, whenever it was issued.
    const opened = Date.now();
    clockOffsetMs = 0;
    const requestsBefore = (await hostState(page)).tokenRequests;
    await page.waitForTimeout(Math.max(0, opened + 10_500 - Date.now()));
    await templateButton(widget, 'Shared files').click();
    await widget.getByLabel('Source name').fill('Files after renewal');
    await useToken(widget);
    await widget.getByLabel('OAuth: Access token').fill(DRIVE_TOKEN);
    await widget.getByRole('button', { name: 'Connect', exact: true }).click();
    await widget.getByText('Waiting for the app to sign you in…').waitFor();
    // The request is a message: the host may count it a moment after the widget shows it is waiting.
    await expect.poll(async () => (await hostState(page)).tokenRequests).toBeGreaterThan(requestsBefore);
    await screenshot(page, 'token-expired');
    await page.evaluate(async () => {
      const state = (window as unknown as { plugboardDemo: { widget: { updateToken(t: string): void }; fetchToken(): Promise<string> } }).plugboardDemo;
      state.widget.updateToken(await state.fetchToken());
    });
    await widget.getByText('Connected Files after renewal.').waitFor();
    expect((await hostState(page)).events.at(-1)).toMatchObject({ message: 'source_created', data: { name: 'Files after renewal' } });
    await page.close();
  });

  it('can be completed with the keyboard alone, has a label for every input, and reads well at 360 and 1280 px', async () => {
    const { page, widget, workspace } = await openWidget({ tags: 'team' }, { width: 360, height: 740 });
    const frame = widgetFrame(page);
    const focused = () => frame.evaluate(() => document.activeElement?.textContent?.trim() || document.activeElement?.getAttribute('aria-label') || '');
    // Tab to the chat template and open it.
    for (let i = 0; i < 10 && !(await focused()).startsWith('Team chat'); i++) await page.keyboard.press('Tab');
    expect(await focused()).toMatch(/^Team chat/);
    await page.keyboard.press('Enter');
    await widget.getByRole('heading', { name: 'Connect Team chat' }).waitFor();
    const tabTo = async (label: string) => {
      const at = () => frame.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? '');
      for (let i = 0; i < 12 && !(await at()).startsWith(label); i++) await page.keyboard.press('Tab');
      expect(await at()).toMatch(new RegExp(`^${label.replace(/[()]/g, '\\$&')}`));
    };
    await tabTo('Source name');
    await page.keyboard.type('Typed chat');
    await tabTo('Start date (UTC)');
    // Month, day, year, hour, minute, second, AM/PM: each part moves on once full; the year (up to six digits) by arrow.
    await page.keyboard.type('01012024');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('120000A');
    await tabTo('Lookback window (days)');
    await page.keyboard.type('3');
    await tabTo('Join channels');
    await page.keyboard.press('Space');
    // Past "Connect with Slack", the switch to the token form.
    for (let i = 0; i < 4 && (await focused()) !== 'Use a token instead'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('Use a token instead');
    await page.keyboard.press('Enter');
    await tabTo('OAuth');
    await page.keyboard.press('ArrowDown'); // the radio group's next kind: personal access token
    await tabTo('Personal access token: Token');
    await page.keyboard.type(CHAT_TOKEN);
    await page.keyboard.press('Enter');
    await widget.getByText('Connected Typed chat.').waitFor();
    const [created] = await sourcesOf(workspace);
    expect(created).toMatchObject({
      name: 'Typed chat',
      auth_type: 'token',
      replication_config: { start_date: '2024-01-01T00:00:00Z', lookback_window: 3, join_channels: true },
    });

    await widget.getByRole('button', { name: 'Edit Typed chat' }).click();
    // The form starts on the kind of credentials the source uses.
    expect(await widget.getByLabel('Personal access token', { exact: true }).isChecked()).toBe(true);
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      const layout = await frame.evaluate(() => ({
        unlabelled: [...document.querySelectorAll('input')].filter((input) => !input.labels?.length || !input.labels[0]!.textContent?.trim()).length,
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      }));
      expect(layout).toEqual({ unlabelled: 0, overflow: 0 });
      await screenshot(page, `edit-form-${width}px`);
    }
    // Cancel, by keyboard, leaves the form for the list; Escape closes the dialog, the button opens it again.
    await widget.getByRole('button', { name: 'Cancel' }).focus();
    await page.keyboard.press('Enter');
    await widget.getByRole('heading', { name: 'Your sources' }).waitFor();
    expect(await frame.evaluate(() => document.activeElement?.textContent)).toBe('Your sources');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.querySelector('dialog')?.open)).toBe(false);
    await page.getByRole('button', { name: 'Connect your data' }).press('Enter');
    await expect.poll(() => page.evaluate(() => document.querySelector('dialog')?.open)).toBe(true);
    // Close posts CLOSE_DIALOG: the host closes its dialog; destroy() takes it away.
    await widget.getByRole('button', { name: 'Close' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.querySelector('dialog')?.open)).toBe(false);
    await page.evaluate(() => (window as unknown as { plugboardDemo: { widget: { destroy(): void } } }).plugboardDemo.widget.destroy());
    expect(await page.evaluate(() => document.querySelectorAll('dialog, iframe').length)).toBe(0);
    await page.close();
  });

  it('clears the messages of a refused try once the form is sent again, and leaves none on the list once it works', async () => {
    const { page, widget } = await openWidget();
    await fillChat(widget, { name: 'Second try', token: 'xoxb-refused', start: '2024-01-01T00:00:00', lookback: '7' });
    await widget.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect.poll(() => widget.locator('p.alert').textContent()).toBe('Please check this field: Credentials.');
    await widget.getByLabel('OAuth: Access token').fill(CHAT_TOKEN);
    await widget.getByRole('button', { name: 'Connect', exact: true }).click();
    await widget.getByText('Connected Second try.').waitFor();
    expect(await widget.locator('p.alert').textContent()).toBe('');
    expect(await widget.getByText(/Please check/).count()).toBe(0);
    await screenshot(page, 'connected-after-refusal');
    await page.close();
  });

  it("shows every problem of the form in one round: its own checks and the server's answer together", async () => {
    const { page, widget } = await openWidget();
    // A name too long (which the server checks), no start date and a lookback too long (which the form checks, by the settings schema).
    await fillChat(widget, { name: 'n'.repeat(256), token: CHAT_TOKEN, lookback: '400' });
    await widget.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect
      .poll(() => widget.locator('p.alert').textContent())
      .toBe('Please check these 3 fields: Source name, Start date (UTC), Lookback window (days).');
    expect(await describing(widget.getByLabel('Source name'), 'error')).toMatch(/255/);
    expect(await describing(widget.getByLabel('Start date (UTC)'), 'error')).toBe('This field is required.');
    expect(await describing(widget.getByLabel('Lookback window (days)'), 'error')).toBe('Enter 365 or less.');
    expect(await widget.getByLabel('Source name').evaluate((input) => input === document.activeElement)).toBe(true);
    // The server's body checks come before its settings checks: alone, it would have needed two rounds.
    expect((await hostState(page)).events).toEqual([
      expect.objectContaining({
        message: 'source_create_error',
        error: { error_code: 'validation_error', detail: [expect.objectContaining({ loc: ['body', 'name'] })] },
      }),
    ]);
    await screenshot(page, 'one-round');
    await page.close();
  });

  it('asks for no consent while the form finds a problem: it shows them all, and opens no window', async () => {
    const { page, widget } = await openWidget();
    await templateButton(widget, 'Team chat').click();
    await widget.getByLabel('Lookback window (days)').fill('400');
    const windows: Page[] = [];
    page.context().on('page', (opened) => windows.push(opened));
    await widget.getByRole('button', { name: 'Connect with Slack' }).click();
    await expect
      .poll(() => widget.locator('p.alert').textContent())
      .toBe('Please check these 3 fields: Source name, Start date (UTC), Lookback window (days).');
    expect(windows).toEqual([]);
    expect((await hostState(page)).events).toEqual([]);
    await page.close();
  });

  it('leads the end user to the source they already have when a second is refused, and no longer offers templates of its type', async () => {
    const { page, widget, workspace } = await openWidget();
    // Meanwhile, elsewhere (another tab): the end user's chat source.
    const scoped = await fx.scopedToken(workspace);
    const templates = JSON.parse((await fx.http.get('api/v1/embedded/templates/sources', { headers: bearer(scoped) })).body).data as Array<{
      id: string;
      name: string;
    }>;
    const made = await fx.http.post('api/v1/embedded/sources', {
      headers: bearer(scoped),
      json: {
        source_template_id: templates.find((template) => template.name === 'Team chat')!.id,
        name: 'Made elsewhere',
        credentials: { token: CHAT_TOKEN },
        replication_config: { start_date: '2024-01-01T00:00:00Z', lookback_window: 5, join_channels: false },
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const existing = JSON.parse(made.body) as { id: string; external_user_id: string };

    await fillChat(widget, { name: 'Second chat', token: CHAT_TOKEN, start: '2024-01-01T00:00:00', lookback: '7' });
    await widget.getByRole('button', { name: 'Connect', exact: true }).click();
    const said = 'You already have a source of this kind: Made elsewhere. Edit it instead of adding another.';
    await expect.poll(() => widget.locator('form .form-error p').textContent()).toBe(said);
    expect(await widget.locator('p.alert').textContent()).toBe(said);
    const shown = await widgetFrame(page).evaluate(() => document.body.textContent ?? '');
    expect([shown.includes(existing.id), shown.includes(existing.external_user_id)]).toEqual([false, false]);
    expect((await hostState(page)).events.at(-1)).toMatchObject({ message: 'source_create_error', error: { error_code: 'connector_exists' } });
    await screenshot(page, 'duplicate-source');

    await widget.getByRole('button', { name: 'Edit Made elsewhere' }).click();
    await widget.getByRole('heading', { name: 'Edit Made elsewhere' }).waitFor();
    expect(await widget.getByLabel('Lookback window (days)').inputValue()).toBe('5');
    await widget.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => widget.locator('ul.sources .name').allInnerTexts()).toEqual(['Made elsewhere']);
    // Neither its template nor the other chat template: only the type the end user has no source of.
    expect(await widget.locator('ul.templates button .name').allInnerTexts()).toEqual(['Shared files']);
    await page.close();
  });

  it("hints a date in its control's format, in the browser's locale, not in the one the server takes", async () => {
    for (const [locale, format] of [
      ['en-US', 'MM/DD/YYYY, hh:mm:ss AM/PM'],
      ['en-GB', 'DD/MM/YYYY, HH:mm:ss'],
    ] as const) {
      const { page, widget } = await openWidget({}, undefined, locale);
      await templateButton(widget, 'Team chat').click();
      const start = widget.getByLabel('Start date (UTC)');
      expect(await start.getAttribute('type')).toBe('datetime-local');
      expect(await describing(start, 'hint')).toBe(`Start of replication, UTC. Enter it as ${format}.`);
      await screenshot(page, `date-hint-${locale}`);
      await page.close();
    }
  });

  it("fits its dialog to its content, up to the window's height", async () => {
    const { page, widget, frame } = await openWidget();
    const heights = async () => ({
      dialog: await page.evaluate(() => Math.round(document.querySelector('dialog')!.getBoundingClientRect().height)),
      content: await frame.evaluate(() => Math.ceil(document.querySelector('main')!.getBoundingClientRect().height)),
    });
    const fits = async () => {
      const { dialog, content } = await heights();
      return Math.abs(dialog - content) <= 1;
    };
    await expect.poll(fits).toBe(true);
    const list = await heights();
    // The list is shorter than the 722 px the dialog used to be.
    expect(list.dialog).toBeLessThan(722);
    await templateButton(widget, 'Team chat').click();
    await widget.getByRole('heading', { name: 'Connect Team chat' }).waitFor();
    await expect.poll(async () => (await heights()).dialog).toBeGreaterThan(list.dialog);
    await expect.poll(fits).toBe(true);
    await screenshot(page, 'dialog-fits-form');
    // A window shorter than the form: the dialog takes what the window leaves it, and the form scrolls inside.
    await page.setViewportSize({ width: 1280, height: 480 });
    await expect.poll(async () => (await heights()).dialog).toBe(480 - 32);
    expect(await frame.evaluate(() => document.documentElement.scrollHeight > document.documentElement.clientHeight)).toBe(true);
    await page.close();
  });

  it("shows each template with its connector's icon, as the definition declares it and the server serves it", async () => {
    const { page, widget } = await openWidget({ tags: 'team' });
    const icons = widget.locator('ul.templates button img');
    await expect
      .poll(() =>
        icons.evaluateAll((images: HTMLImageElement[]) =>
          images.map((image) => [image.getAttribute('src'), image.complete && image.naturalWidth > 0, image.alt]),
        ),
      )
      .toEqual([
        ['/embedded-widget/icons/chat.svg', true, ''],
        ['/embedded-widget/icons/file-storage.svg', true, ''],
      ]);
    await screenshot(page, 'template-icons');
    for (const type of ['chat', 'file-storage']) {
      const icon = await fx.http.get(`embedded-widget/icons/${type}.svg`);
      expect([icon.statusCode, icon.headers['content-type'], icon.headers['content-security-policy']]).toEqual([
        200,
        'image/svg+xml',
        expect.stringContaining('sandbox'),
      ]);
      expect(icon.body).toBe(readFileSync(new URL(`../../connectors/${type}/icon.svg`, import.meta.url), 'utf8'));
    }
    expect((await fx.http.get('embedded-widget/icons/no-such-type.svg')).statusCode).toBe(404);
    await page.close();
  });
});

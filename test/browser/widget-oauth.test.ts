import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { workspaceDataDir } from '../../core/hosted/sync/destinations/create-destination.ts';
import { startOperatorPage, type OperatorPage } from '../../scripts/operator-page.ts';
import { listen } from '../../testing/sandbox-kit.ts';
import { browserAvailable, freePort, launchBrowser, SCREENSHOT_DIR } from '../helpers/browser.ts';
import { bearer, startHostedFixture, type HostedFixture } from '../helpers/hosted-fixture.ts';
import { publicAccessToken } from '../helpers/public-api-calls.ts';
import { testDestination } from '../helpers/sync-destinations.ts';
// Its declaration of what vitest provides, which sync-destinations reads (the browser tests' project does not include it).
import type {} from '../helpers/destination-database.setup.ts';

/**
 * Connecting accounts by OAuth consent in headless Chromium, against the sandboxes' consent pages:
 * the widget's "Connect with <provider>" popup for both built-in types (allowed, denied, closed,
 * blocked), reconnecting a source whose grant is gone, and the public API's initiateOAuth with a
 * redirect to a page of the test's own, then a sync of the source it made.
 */

type SandboxName = 'chatSandbox' | 'driveSandbox';

interface OAuthCase {
  type: 'chat' | 'file-storage';
  template: string;
  provider: string;
  sandbox: SandboxName;
  /** The app's type name, and where the operator registers it. */
  app: { name: string; owner: 'organization' | 'workspace' };
  /** The call that proves the source works against the sandbox. */
  execute: { entity: string; params: Record<string, unknown> };
}

const CASES: OAuthCase[] = [
  {
    type: 'chat',
    template: 'Slack chat',
    provider: 'Slack',
    sandbox: 'chatSandbox',
    app: { name: 'slack', owner: 'organization' },
    execute: { entity: 'users', params: { limit: 3 } },
  },
  {
    type: 'file-storage',
    template: 'Drive files',
    provider: 'Google',
    sandbox: 'driveSandbox',
    app: { name: 'google-drive', owner: 'workspace' },
    execute: { entity: 'files', params: { pageSize: 3 } },
  },
];

describe.skipIf(!browserAvailable())('OAuth consents in a browser', { timeout: 120_000 }, () => {
  let fx: HostedFixture;
  let host: OperatorPage;
  let browser: Browser;
  let serverUrl: string;
  let publicToken: string;
  let organizationId: string;
  /** The test's own page the public API flow is sent back to. */
  let landing: { server: Server; url: string };
  let workspaces = 0;

  beforeAll(async () => {
    const port = await freePort();
    serverUrl = `http://127.0.0.1:${port}`;
    fx = await startHostedFixture('sqlite', { port, config: { publicUrl: serverUrl } });
    const operator = await fx.operatorToken();
    for (const [name, connectorType] of [
      ['Slack chat', 'chat'],
      ['Drive files', 'file-storage'],
    ] as const) {
      const response = await fx.http.post('api/v1/integrations/templates/sources', {
        headers: bearer(operator),
        json: { name, connector_type: connectorType },
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    publicToken = await publicAccessToken(fx);
    const organizations = await fx.http.get('v1/organizations', { headers: bearer(publicToken) });
    organizationId = JSON.parse(organizations.body).data[0].organizationId;
    // Slack's app for the whole organization; Google's is registered per workspace by the test that needs it.
    await registerApp('organizations', organizationId, 'slack', 'org-slack-app');
    host = await startOperatorPage({ plugboardUrl: serverUrl, clientId: fx.clientId, clientSecret: fx.clientSecret, workspaceName: 'unused' });
    const landingServer = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Back in the app</title><h1>Back in the app</h1>');
    });
    landing = { server: landingServer, url: await listen(landingServer, 0) };
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await new Promise((resolve) => landing?.server.close(resolve));
    await fx?.close();
  });

  async function registerApp(owners: 'organizations' | 'workspaces', id: string, name: string, clientId: string): Promise<void> {
    const response = await fx.http.put(`v1/${owners}/${id}/oauthCredentials`, {
      headers: bearer(publicToken),
      json: { actorType: 'source', name, configuration: { credentials: { client_id: clientId, client_secret: `${clientId}-secret` } } },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  const workspaceIdOf = async (name: string) => {
    const listed = JSON.parse((await fx.http.get('v1/workspaces?limit=100', { headers: bearer(publicToken) })).body).data as Array<{
      workspaceId: string;
      name: string;
    }>;
    return listed.find((workspace) => workspace.name === name)!.workspaceId;
  };

  /**
   * The operator page for a workspace of its own (or `workspace`), its widget open. Every URL the
   * browser asks for is kept: the callback's (its code and state) and the done page's (the secret id).
   */
  async function openWidget(options: { workspace?: string; blockPopups?: boolean } = {}) {
    const workspace = options.workspace ?? `oauth-ws-${++workspaces}`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const requested: string[] = [];
    context.on('request', (request) => requested.push(request.url()));
    // A popup blocker: window.open answers null, in the widget's frame as everywhere.
    if (options.blockPopups) await context.addInitScript(() => (window.open = () => null));
    const page = await context.newPage();
    await page.goto(`${host.url}/?${new URLSearchParams({ workspace })}`);
    await page.getByRole('button', { name: 'Connect your data' }).click();
    const widget = page.frameLocator('dialog iframe');
    await widget.getByRole('heading', { name: 'Add a source' }).waitFor();
    return { context, page, widget, workspace, requested };
  }

  const templateButton = (widget: FrameLocator, name: string) =>
    widget.locator('ul.templates button', { has: widget.locator('.name', { hasText: new RegExp(`^${name}$`) }) });
  const hostEvents = (page: Page) =>
    page.evaluate(() => (window as unknown as { plugboardDemo: { events: Array<Record<string, unknown>> } }).plugboardDemo.events);
  const screenshot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png` });
  const sourcesOf = async (workspace: string) =>
    JSON.parse((await fx.http.get('api/v1/embedded/sources', { headers: bearer(await fx.scopedToken(workspace)) })).body).data as Array<
      Record<string, unknown>
    >;
  const execute = async (workspace: string, id: unknown, { entity, params }: OAuthCase['execute']) =>
    fx.http.post(`api/v1/connectors/sources/${id}/execute`, { headers: bearer(await fx.scopedToken(workspace)), json: { entity, action: 'list', params } });

  /** Fills the new source's form (its name, and chat's sync settings). */
  async function fillForm(widget: FrameLocator, oauthCase: OAuthCase, name: string): Promise<void> {
    await templateButton(widget, oauthCase.template).click();
    await widget.getByLabel('Source name').fill(name);
    if (oauthCase.type === 'chat') {
      await widget.getByLabel('Start date (UTC)').fill('2024-01-01T00:00:00');
      await widget.getByLabel('Lookback window (days)').fill('7');
    }
  }

  /** Presses `button` in the widget; answers the consent's popup, once it shows the sandbox's consent page. */
  async function popupFrom(context: BrowserContext, press: () => Promise<void>, oauthCase: OAuthCase): Promise<Page> {
    const [popup] = await Promise.all([context.waitForEvent('page'), press()]);
    await popup.waitForURL((url) => url.href.startsWith(fx[oauthCase.sandbox].authorizeUrl));
    return popup;
  }

  /** Decides on the sandbox's consent page; the popup goes through Plugboard's callback to the done page, which closes it. */
  async function decide(popup: Page, decision: 'allow' | 'deny'): Promise<void> {
    await Promise.all([popup.waitForEvent('close'), popup.locator(`button[name=decision][value=${decision}]`).click()]);
  }

  /** A message above the form's buttons, announced as an alert too. */
  async function expectShown(widget: FrameLocator, message: string): Promise<void> {
    await expect.poll(() => widget.locator('form .form-error').textContent(), { timeout: 10_000 }).toBe(message);
    expect(await widget.getByRole('alert').textContent()).toBe(message);
  }

  const secretOf = (requested: string[]) => {
    const done = requested.filter((url) => url.startsWith(`${serverUrl}/widget/oauth/done?`)).at(-1);
    return done ? new URL(done).searchParams : undefined;
  };

  it.each(CASES)('connects a $type source with $provider in a popup; the host is told, and the source runs against the sandbox', async (oauthCase) => {
    const { context, page, widget, workspace, requested } = await openWidget();
    if (oauthCase.app.owner === 'workspace') await registerApp('workspaces', await workspaceIdOf(workspace), oauthCase.app.name, `ws-${oauthCase.type}-app`);
    const grantsBefore = fx[oauthCase.sandbox].oauthStats().grants.authorization_code;
    await fillForm(widget, oauthCase, `Our ${oauthCase.provider}`);
    // Consent first; the token form waits behind its switch.
    const connect = widget.getByRole('button', { name: `Connect with ${oauthCase.provider}` });
    expect(await connect.isVisible()).toBe(true);
    expect(await widget.getByLabel('OAuth: Access token').isVisible()).toBe(false);
    expect(await widget.getByRole('button', { name: 'Use a token instead' }).getAttribute('aria-expanded')).toBe('false');
    await screenshot(page, `oauth-${oauthCase.type}-form`);

    const popup = await popupFrom(context, () => connect.click(), oauthCase);
    await widget.getByText(`Waiting for you to finish in the ${oauthCase.provider} window…`).waitFor();
    await screenshot(popup, `oauth-${oauthCase.type}-consent`);
    await decide(popup, 'allow');
    await widget.getByText(`Connected Our ${oauthCase.provider}.`).waitFor();
    await expect.poll(() => widget.locator('ul.sources .name').allInnerTexts()).toEqual([`Our ${oauthCase.provider}`]);
    await screenshot(page, `oauth-${oauthCase.type}-connected`);

    const events = await hostEvents(page);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'end_user_action_result',
        message: 'source_created',
        data: expect.objectContaining({ name: `Our ${oauthCase.provider}`, connector_type: oauthCase.type, auth_type: 'oauth', auth_status: 'active' }),
      }),
    ]);
    // The done page carried the state and the secret id, and dropped them from its address; the host never saw the secret.
    const done = secretOf(requested)!;
    expect([...done.keys()].sort()).toEqual(['secret_id', 'state']);
    expect(JSON.stringify(events)).not.toContain(done.get('secret_id')!);
    expect(fx[oauthCase.sandbox].oauthStats().grants.authorization_code).toBe(grantsBefore + 1);
    const client = oauthCase.app.owner === 'workspace' ? `ws-${oauthCase.type}-app` : 'org-slack-app';
    expect(fx[oauthCase.sandbox].oauthStats().clients.map((pair) => pair.client_id)).toContain(client);

    const [source] = await sourcesOf(workspace);
    const response = await execute(workspace, source!.id, oauthCase.execute);
    expect(response.statusCode, response.body).toBe(200);
    expect(JSON.parse(response.body).result.length).toBeGreaterThan(0);
    await context.close();
  });

  it('says so when the end user denies access, creates nothing, and connects on the next try', async () => {
    const chat = CASES[0]!;
    const { context, page, widget, workspace } = await openWidget();
    await fillForm(widget, chat, 'Denied Slack');
    const connect = widget.getByRole('button', { name: 'Connect with Slack' });
    await decide(await popupFrom(context, () => connect.click(), chat), 'deny');
    await expectShown(widget, 'You declined access in Slack, so nothing was connected.');
    await screenshot(page, 'oauth-denied');
    expect(await sourcesOf(workspace)).toEqual([]);
    // No server call failed: the host is told nothing.
    expect(await hostEvents(page)).toEqual([]);

    await decide(await popupFrom(context, () => connect.click(), chat), 'allow');
    await widget.getByText('Connected Denied Slack.').waitFor();
    expect((await sourcesOf(workspace)).map((source) => source.name)).toEqual(['Denied Slack']);
    await context.close();
  });

  it('says so when the popup is closed before the end user decides', async () => {
    const chat = CASES[0]!;
    const { context, page, widget, workspace } = await openWidget();
    await fillForm(widget, chat, 'Abandoned Slack');
    const popup = await popupFrom(context, () => widget.getByRole('button', { name: 'Connect with Slack' }).click(), chat);
    await popup.close();
    await expectShown(widget, 'The Slack window was closed before you finished, so nothing was connected. Try again when you are ready.');
    expect(await widget.getByRole('button', { name: 'Connect with Slack' }).isEnabled()).toBe(true);
    await screenshot(page, 'oauth-popup-closed');
    expect(await sourcesOf(workspace)).toEqual([]);
    await context.close();
  });

  it('says so when the browser blocks the popup', async () => {
    const chat = CASES[0]!;
    const { page, widget, workspace, requested, context } = await openWidget({ blockPopups: true });
    await fillForm(widget, chat, 'Blocked Slack');
    await widget.getByRole('button', { name: 'Connect with Slack' }).click();
    await expectShown(widget, 'Your browser blocked the window to sign in to Slack. Allow pop-ups for this page, then try again.');
    await screenshot(page, 'oauth-popup-blocked');
    // Nothing was started: no consent asked for, no source.
    expect(requested.filter((url) => url.includes('/oauth/initiate'))).toEqual([]);
    expect(await sourcesOf(workspace)).toEqual([]);
    // The token form is still there for who can't allow pop-ups.
    await widget.getByRole('button', { name: 'Use a token instead' }).click();
    expect(await widget.getByLabel('OAuth: Access token').isVisible()).toBe(true);
    await context.close();
  });

  it("ignores an outcome that is not its consent's, and shows the server's refusal when no app is registered", async () => {
    const chat = CASES[0]!;
    const { context, page, widget, workspace } = await openWidget();
    await fillForm(widget, chat, 'Slack with a forged outcome');
    const popup = await popupFrom(context, () => widget.getByRole('button', { name: 'Connect with Slack' }).click(), chat);
    // From the widget's own frame (not the popup), then from the popup with another state: neither is taken.
    await page
      .frames()
      .find((frame) => frame.url().startsWith(`${serverUrl}/embedded-widget`))!
      .evaluate(() => window.postMessage({ type: 'plugboard:oauth', state: 'any', secret_id: 'forged' }, location.origin));
    // The done page closes its window before the navigation counts as finished.
    await Promise.all([popup.waitForEvent('close'), popup.goto(`${serverUrl}/widget/oauth/done?state=not-this-one&error=access_denied`).catch(() => null)]);
    await expectShown(widget, 'The Slack window was closed before you finished, so nothing was connected. Try again when you are ready.');
    expect(await sourcesOf(workspace)).toEqual([]);

    // Google: no app registered for this workspace or its organization.
    await widget.getByRole('button', { name: 'Cancel' }).click();
    await templateButton(widget, 'Drive files').click();
    await widget.getByLabel('Source name').fill('Drive without an app');
    const [refusedPopup] = await Promise.all([context.waitForEvent('page'), widget.getByRole('button', { name: 'Connect with Google' }).click()]);
    // Closed by the widget once the server refused (maybe before this line runs).
    await expect.poll(() => refusedPopup.isClosed(), { timeout: 10_000 }).toBe(true);
    await expectShown(widget, "Connecting with Google is not set up in this app yet. Use a token instead, or ask the app's support.");
    await screenshot(page, 'oauth-app-not-registered');
    // The host gets the server's own words, for the operator.
    expect((await hostEvents(page)).at(-1)).toMatchObject({
      message: 'source_create_error',
      error: { error_code: 'oauth_app_not_registered', detail: expect.stringMatching(/^oauth_app_not_registered: /) },
    });
    await context.close();
  });

  it('serves the done page to anyone: opened without a widget, it only says the window can be closed', async () => {
    const response = await fx.http.get('widget/oauth/done?state=s&secret_id=never-shown');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['cross-origin-opener-policy']).toBeUndefined();
    expect([response.headers['cache-control'], response.headers['referrer-policy']]).toEqual(['no-store', 'no-referrer']);
    expect(response.body).not.toContain('never-shown');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${serverUrl}/widget/oauth/done?state=s&secret_id=never-shown`);
    await page.getByText('You can close this window.').waitFor();
    // The secret id left the address bar.
    expect(page.url()).toBe(`${serverUrl}/widget/oauth/done`);
    await screenshot(page, 'oauth-done-alone');
    await context.close();
  });

  it('lists a source whose grant is gone with Reconnect, which connects it again by consent', async () => {
    const chat = CASES[0]!;
    const first = await openWidget();
    const { workspace } = first;
    await fillForm(first.widget, chat, 'Slack to reconnect');
    await decide(await popupFrom(first.context, () => first.widget.getByRole('button', { name: 'Connect with Slack' }).click(), chat), 'allow');
    await first.widget.getByText('Connected Slack to reconnect.').waitFor();
    await first.context.close();
    const [source] = await sourcesOf(workspace);

    // The provider ends the grant: the access token expires and its refresh is refused.
    fx.chatSandbox.revokeGrants();
    fx.chatSandbox.expireAccessTokens();
    const refused = await execute(workspace, source!.id, chat.execute);
    expect(refused.statusCode, refused.body).toBe(401);
    expect(JSON.parse(refused.body).error_code).toBe('credentials_expired');
    expect((await sourcesOf(workspace))[0]).toMatchObject({ auth_status: 'needs_reauth' });

    const { context, page, widget } = await openWidget({ workspace });
    const reconnect = widget.getByRole('button', { name: 'Reconnect Slack to reconnect' });
    await reconnect.waitFor();
    expect(await widget.getByText('Disconnected: reconnect it with Slack.').isVisible()).toBe(true);
    await screenshot(page, 'oauth-needs-reauth');
    await decide(await popupFrom(context, () => reconnect.click(), chat), 'allow');
    await widget.getByText('Reconnected Slack to reconnect.').waitFor();
    expect(await widget.getByRole('button', { name: 'Reconnect Slack to reconnect' }).count()).toBe(0);
    expect((await hostEvents(page)).at(-1)).toMatchObject({
      type: 'end_user_action_result',
      message: 'source_updated',
      data: { id: source!.id, auth_status: 'active' },
    });
    const again = await execute(workspace, source!.id, chat.execute);
    expect(again.statusCode, again.body).toBe(200);
    expect((await sourcesOf(workspace))[0]).toMatchObject({ id: source!.id, auth_status: 'active' });
    await context.close();
  });

  it('runs the public API flow: initiateOAuth, consent, back to the redirect URL with secret_id, a source, a sync; a replayed callback is refused', async () => {
    const call = (method: 'get' | 'post', path: string, body?: unknown) =>
      fx.http(`v1/${path}`, { method: method.toUpperCase() as 'GET', headers: bearer(publicToken), ...(body === undefined ? {} : { json: body }) });
    const created = await call('post', 'workspaces', { name: 'oauth-public-api' });
    expect(created.statusCode, created.body).toBe(200);
    const workspaceId = JSON.parse(created.body).workspaceId as string;
    // The workspace's own app, in place of the organization's.
    await registerApp('workspaces', workspaceId, 'slack', 'ws-public-slack-app');
    const redirectUrl = `${landing.url}/connected?from=plugboard`;
    const initiated = await call('post', 'sources/initiateOAuth', { redirectUrl, sourceType: 'slack', workspaceId });
    expect(initiated.statusCode, initiated.body).toBe(200);
    const { consentUrl } = JSON.parse(initiated.body) as { consentUrl: string };
    expect(consentUrl.startsWith(fx.chatSandbox.authorizeUrl)).toBe(true);

    const context = await browser.newContext();
    const requested: string[] = [];
    context.on('request', (request) => requested.push(request.url()));
    const page = await context.newPage();
    await page.goto(consentUrl);
    await screenshot(page, 'oauth-public-consent');
    await Promise.all([page.waitForURL(`${landing.url}/connected?**`), page.locator('button[name=decision][value=allow]').click()]);
    const back = new URL(page.url());
    expect(back.searchParams.get('from')).toBe('plugboard');
    const secretId = back.searchParams.get('secret_id');
    expect(secretId).toBeTruthy();
    expect(back.searchParams.has('state')).toBe(false);
    expect(await page.title()).toBe('Back in the app');

    // The callback again, as a replay would send it: refused, no exchange, no second secret.
    const callback = requested.find((url) => url.startsWith(`${serverUrl}/v1/oauth/callback?`))!;
    expect(new URL(callback).searchParams.get('code')).toBeTruthy();
    const grants = fx.chatSandbox.oauthStats().grants.authorization_code;
    const replay = await page.goto(callback);
    expect(replay!.status()).toBe(400);
    expect(page.url()).toBe(callback);
    expect(await page.getByRole('alert').textContent()).toMatch(/already used|unknown|expired/);
    await screenshot(page, 'oauth-public-replay');
    expect(fx.chatSandbox.oauthStats().grants.authorization_code).toBe(grants);
    expect(fx.chatSandbox.oauthStats().clients.map((pair) => pair.client_id)).toContain('ws-public-slack-app');
    await context.close();

    const source = await call('post', 'sources', {
      name: 'Slack by consent',
      workspaceId,
      configuration: { sourceType: 'slack', start_date: '2000-01-01T00:00:00Z', lookback_window: 0, join_channels: false },
      secretId,
    });
    expect(source.statusCode, source.body).toBe(200);
    const sourceId = JSON.parse(source.body).sourceId as string;
    // The secret is single-use.
    const twice = await call('post', 'sources', {
      name: 'Slack again',
      workspaceId,
      configuration: { sourceType: 'slack', start_date: '2000-01-01T00:00:00Z', lookback_window: 0, join_channels: false },
      secretId,
    });
    expect(twice.statusCode, twice.body).toBe(400);

    const destination = await testDestination('sqlite', workspaceDataDir(fx.dataDir, workspaceId));
    const createdDestination = await call('post', 'destinations', { name: 'sqlite', workspaceId, configuration: destination.configuration });
    expect(createdDestination.statusCode, createdDestination.body).toBe(200);
    const connection = await call('post', 'connections', { sourceId, destinationId: JSON.parse(createdDestination.body).destinationId, prefix: 'slack_' });
    expect(connection.statusCode, connection.body).toBe(200);
    const started = await call('post', 'jobs', { connectionId: JSON.parse(connection.body).connectionId, jobType: 'sync' });
    expect(started.statusCode, started.body).toBe(200);
    const jobId = JSON.parse(started.body).jobId as number;
    let job: { status: string; rowsSynced: number } = { status: 'pending', rowsSynced: 0 };
    for (let i = 0; i < 600 && !['succeeded', 'failed', 'cancelled'].includes(job.status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = JSON.parse((await call('get', `jobs/${jobId}`)).body);
    }
    expect(job.status).toBe('succeeded');
    expect((await destination.rows('slack_users')).length).toBe(fx.chatSandbox.data.users.length);
    expect(job.rowsSynced).toBeGreaterThan(fx.chatSandbox.data.users.length);
    await destination.drop();
  });
});

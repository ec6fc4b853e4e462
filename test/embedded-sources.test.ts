import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { DRIVE_TOKEN } from './helpers/drive-fixture.ts';
import { BACKENDS, bearer, startHostedFixture, TEST_PUBLIC_URL, type HostedFixture } from './helpers/hosted-fixture.ts';

/**
 * What the embedded widget builds on beyond creation: the connector types' form schemas, and
 * replacing an embedded source's name, credentials or replication settings (PATCH), for scoped
 * tokens and for widgets (only the sources a widget could have made).
 */

const ORIGIN = 'https://app.example';
const CONFIG = { start_date: '2024-01-01T00:00:00Z', lookback_window: 7, join_channels: false };

describe.each(BACKENDS)('embedded sources on %s', (backend) => {
  let fx: HostedFixture;
  let operator: string;
  let scoped: string;
  let widget: string;
  let chatTemplate: string;
  let driveTemplate: string;
  let hiddenTemplate: string;

  const json = (response: { body: string }) => JSON.parse(response.body);
  const call = (method: 'GET' | 'POST' | 'PATCH', path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
    fx.http(path, { method, headers: { ...bearer(token), ...headers }, ...(body === undefined ? {} : { json: body }) });
  const template = async (name: string, connectorType: string, tags: string[]) =>
    json(await call('POST', 'api/v1/integrations/templates/sources', operator, { name, connector_type: connectorType, tags })).id as string;
  const createSource = async (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const response = await call('POST', 'api/v1/embedded/sources', token, body, headers);
    expect(response.statusCode, response.body).toBe(201);
    return json(response) as { id: string } & Record<string, unknown>;
  };

  beforeAll(async () => {
    fx = await startHostedFixture(backend);
    operator = await fx.operatorToken();
    scoped = await fx.scopedToken('embedded-ws');
    chatTemplate = await template('Team chat', 'chat', ['chat']);
    driveTemplate = await template('Files', 'file-storage', ['files']);
    hiddenTemplate = await template('Hidden', 'chat', ['internal']);
    const issued = await call('POST', 'api/v1/embedded/widget-token', operator, {
      workspace_name: 'embedded-ws',
      allowed_origin: ORIGIN,
      selected_source_template_tags: ['chat', 'files'],
    });
    widget = JSON.parse(Buffer.from(json(issued).token, 'base64').toString()).token;
  });
  afterAll(async () => {
    await fx.close();
  });

  it('describes each connector type for a form: credential kinds and replication settings, with titles', async () => {
    const response = await call('GET', 'api/v1/embedded/connector-types', widget, undefined, { origin: ORIGIN });
    expect([response.statusCode, response.headers['access-control-allow-origin']]).toEqual([200, ORIGIN]);
    const types = Object.fromEntries((json(response).data as Array<{ connector_type: string }>).map((spec) => [spec.connector_type, spec]));
    expect(types.chat).toMatchObject({
      display_name: 'Team chat (Slack Web API)',
      credentials: {
        oneOf: [
          { title: 'OAuth', required: ['access_token'], properties: { access_token: { type: 'string', title: 'Access token', writeOnly: true } } },
          { title: 'Personal access token', required: ['token'], properties: { token: { type: 'string', title: 'Token' } } },
        ],
      },
      replication_config: {
        required: ['start_date', 'lookback_window', 'join_channels'],
        properties: {
          start_date: { title: 'Start date', format: 'date-time' },
          lookback_window: { title: 'Lookback window (days)', minimum: 0, maximum: 365 },
          join_channels: { title: 'Join channels', type: 'boolean' },
        },
      },
    });
    expect(types['file-storage']).toMatchObject({ replication_config: null });
    expect((await call('GET', 'api/v1/embedded/connector-types', operator)).statusCode).toBe(401);
  });

  it('replaces name and replication settings, and credentials only once the upstream accepts them', async () => {
    const source = await createSource(scoped, {
      source_template_id: chatTemplate,
      name: 'Chat',
      credentials: { token: CHAT_TOKEN },
      replication_config: CONFIG,
    });
    const patch = (body: unknown) => call('PATCH', `api/v1/embedded/sources/${source.id}`, scoped, body);

    const renamed = await patch({ name: 'Team chat', replication_config: { ...CONFIG, lookback_window: 30 } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(json(renamed)).toMatchObject({ id: source.id, name: 'Team chat', auth_type: 'token', replication_config: { lookback_window: 30 } });

    const refused = await patch({ credentials: { token: 'xoxb-wrong' } });
    expect([refused.statusCode, json(refused).error_code]).toEqual([400, 'credentials_rejected']);
    expect(refused.body).not.toContain('xoxb-wrong');
    // Nothing was stored: the source still runs with the credentials it had.
    const listed = await call('POST', `api/v1/connectors/sources/${source.id}/execute`, scoped, { entity: 'users', action: 'list', params: { limit: 2 } });
    expect(listed.statusCode, listed.body).toBe(200);

    const replaced = await patch({ credentials: { access_token: CHAT_TOKEN } });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(json(replaced)).toMatchObject({ auth_type: 'oauth', name: 'Team chat' });
    expect(replaced.body).not.toContain(CHAT_TOKEN);
    const again = await call('POST', `api/v1/connectors/sources/${source.id}/execute`, scoped, { entity: 'users', action: 'list', params: { limit: 2 } });
    expect(again.statusCode, again.body).toBe(200);
    // Neither the refused nor the stored secret reaches the server's log.
    expect(fx.logs.join('\n')).not.toMatch(/xoxb-wrong|xoxb-test-secret/);
    const stored = json(await call('GET', 'api/v1/embedded/sources', scoped)).data.find((s: { id: string }) => s.id === source.id);
    expect(stored).toMatchObject({ name: 'Team chat', auth_type: 'oauth', replication_config: { ...CONFIG, lookback_window: 30 } });
  });

  it('answers bad updates with 4xx errors that point at the field, and changes nothing', async () => {
    const sources = json(await call('GET', 'api/v1/embedded/sources', scoped)).data as Array<{ id: string; connector_type: string }>;
    const chat = sources.find((s) => s.connector_type === 'chat')!;
    const patch = (id: string, body: unknown, token = scoped) => call('PATCH', `api/v1/embedded/sources/${id}`, token, body);
    const issue = async (response: Promise<{ statusCode: number; body: string }>) => {
      const answer = await response;
      return [answer.statusCode, json(answer).detail[0].loc, json(answer).detail[0].type];
    };
    expect(await issue(patch(chat.id, {}))).toEqual([422, ['body'], expect.any(String)]);
    expect(await issue(patch(chat.id, { replication_config: { ...CONFIG, lookback_window: 400 } }))).toEqual([
      422,
      ['body', 'replication_config', 'lookback_window'],
      expect.any(String),
    ]);
    expect(await issue(patch(chat.id, { credentials: { token: CHAT_TOKEN, access_token: CHAT_TOKEN } }))).toEqual([
      422,
      ['body', 'credentials'],
      expect.any(String),
    ]);
    expect(await issue(patch(chat.id, { name: '' }))).toEqual([422, ['body', 'name'], expect.any(String)]);
    expect(await issue(patch(chat.id, { owner: 'me' }))).toEqual([422, ['body', 'owner'], expect.any(String)]);

    const drive = await createSource(scoped, { source_template_id: driveTemplate, name: 'Files', credentials: { token: DRIVE_TOKEN } });
    expect(await issue(patch(drive.id, { replication_config: CONFIG }))).toEqual([
      422,
      ['body', 'replication_config'],
      'value_error.replication_config_not_supported',
    ]);
    const unknown = await patch('00000000-0000-4000-8000-000000000000', { name: 'x' });
    // An unknown id answers like a source the caller may not see: nothing tells the two apart.
    expect([unknown.statusCode, json(unknown).error_code]).toEqual([404, 'source_not_found']);
    // A connector made without a template is not an embedded source.
    const plain = await fx.createConnector('someone', 'chat', { token: CHAT_TOKEN }, scoped);
    expect((await patch(plain.id, { name: 'x' })).statusCode).toBe(404);
    // Another workspace's source: 403, as for every connector route.
    expect((await patch(chat.id, { name: 'x' }, await fx.scopedToken('other-ws'))).statusCode).toBe(403);
    expect(json(await call('GET', 'api/v1/embedded/sources', scoped)).data.find((s: { id: string }) => s.id === chat.id).name).toBe('Team chat');
  });

  it('lets a widget update only the sources it could have created, from its origin, with CORS', async () => {
    const fromWidget = { origin: ORIGIN };
    // The workspace's own end user's chat source (one per type and user), made from an offered template.
    const listed = json(await call('GET', 'api/v1/embedded/sources', widget, undefined, fromWidget)).data as Array<Record<string, string>>;
    const own = listed.find((s) => s.connector_type === 'chat' && s.external_user_id === s.workspace_id && s.source_template_id === chatTemplate)!;
    const again = await call(
      'POST',
      'api/v1/embedded/sources',
      widget,
      { source_template_id: chatTemplate, name: 'Twice', credentials: { token: CHAT_TOKEN } },
      fromWidget,
    );
    expect([again.statusCode, json(again).connector_id]).toEqual([409, own.id]);
    const preflight = await fx.http(`api/v1/embedded/sources/${own.id}`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.headers['access-control-allow-methods']).toContain('PATCH');
    const updated = await call('PATCH', `api/v1/embedded/sources/${own.id}`, widget, { replication_config: { ...CONFIG, join_channels: true } }, fromWidget);
    expect([updated.statusCode, updated.headers['access-control-allow-origin']]).toEqual([200, ORIGIN]);
    expect(json(updated).replication_config.join_channels).toBe(true);
    expect((await call('PATCH', `api/v1/embedded/sources/${own.id}`, widget, { name: 'x' }, { origin: 'https://evil.example' })).statusCode).toBe(403);

    // A template its tags do not offer, or another end user's source: not found, as at creation.
    const hidden = await createSource(scoped, {
      source_template_id: hiddenTemplate,
      name: 'Hidden',
      credentials: { token: CHAT_TOKEN },
      external_user_id: 'hidden-user',
    });
    const someoneElse = await createSource(scoped, {
      source_template_id: chatTemplate,
      name: 'Theirs',
      credentials: { token: CHAT_TOKEN },
      external_user_id: 'another-user',
    });
    for (const id of [hidden.id, someoneElse.id]) {
      const response = await call('PATCH', `api/v1/embedded/sources/${id}`, widget, { name: 'taken' }, fromWidget);
      expect([response.statusCode, json(response).error_code]).toEqual([404, 'source_not_found']);
    }
    // The widget page itself, served on the server's public origin, may use the widget token too.
    const fromPage = await call('GET', 'api/v1/embedded/sources', widget, undefined, { origin: TEST_PUBLIC_URL });
    expect(fromPage.statusCode, fromPage.body).toBe(200);
    // A widget lists only the sources it could have made: not another end user's, not a hidden template's.
    expect((json(fromPage).data as Array<{ id: string }>).map((s) => s.id)).not.toEqual(expect.arrayContaining([hidden.id]));
    expect((json(fromPage).data as Array<{ id: string }>).map((s) => s.id)).not.toEqual(expect.arrayContaining([someoneElse.id]));
    const asScoped = (json(await call('GET', 'api/v1/embedded/sources', scoped)).data as Array<{ id: string }>).map((s) => s.id);
    expect(asScoped).toEqual(expect.arrayContaining([hidden.id, someoneElse.id, own.id]));
  });

  it('serves the widget page only for a live widget origin, framed only by it, and its files and host script', async () => {
    const page = (query: string) => fx.http.get(`embedded-widget${query}`);
    for (const [query, status, frameAncestors] of [
      ['', 400, "frame-ancestors 'none'"],
      ['?allowedOrigin=https%3A%2F%2Fapp.example%2Fpath', 400, "frame-ancestors 'none'"],
      ['?allowedOrigin=https%3A%2F%2Fnever-issued.example', 403, 'frame-ancestors https://never-issued.example'],
      [`?workspaceId=x&allowedOrigin=${encodeURIComponent(ORIGIN)}`, 200, `frame-ancestors ${ORIGIN}`],
    ] as const) {
      const response = await page(query);
      expect([response.statusCode, response.headers['content-type']], query).toEqual([status, 'text/html; charset=utf-8']);
      expect(response.headers['content-security-policy']).toMatch(new RegExp(`script-src 'self'.*; ${frameAncestors.replace(/[.*]/g, '\\$&')}$`));
      expect(response.headers['cache-control']).toBe('no-store');
    }
    const html = (await page(`?allowedOrigin=${encodeURIComponent(ORIGIN)}`)).body;
    expect(html).not.toMatch(/<script>|\son\w+=/);
    const assets = [...html.matchAll(/(?:src|href)="(\/embedded-widget\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toHaveLength(2);
    for (const asset of assets) {
      const response = await fx.http.get(asset.slice(1));
      expect([response.statusCode, response.headers['cache-control']]).toEqual([200, 'public, max-age=31536000, immutable']);
    }
    const missing = await fx.http.get('embedded-widget/assets/nothing.js');
    expect([missing.statusCode, json(missing)]).toEqual([404, { detail: 'Not found' }]);
    const host = await fx.http.get('embedded-widget.js');
    expect([host.statusCode, host.headers['content-type'], host.headers['access-control-allow-origin']]).toEqual([200, 'text/javascript; charset=utf-8', '*']);
    expect(host.body).toMatch(/export\s*\{[^}]*PlugboardWidget/);
  });

  it('keeps both of two concurrent updates of different fields, and answers 404 for a source deleted meanwhile', async () => {
    const source = await createSource(scoped, {
      source_template_id: chatTemplate,
      name: 'Racing',
      credentials: { token: CHAT_TOKEN },
      replication_config: CONFIG,
      external_user_id: 'racing-user',
    });
    const patch = (body: unknown) => call('PATCH', `api/v1/embedded/sources/${source.id}`, scoped, body);
    const answers = await Promise.all([patch({ name: 'Renamed while racing' }), patch({ credentials: { access_token: CHAT_TOKEN } })]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const stored = json(await call('GET', 'api/v1/embedded/sources', scoped)).data.find((s: { id: string }) => s.id === source.id);
    expect(stored).toMatchObject({ name: 'Renamed while racing', auth_type: 'oauth' });
    expect((await fx.http.delete(`api/v1/integrations/connectors/${source.id}`, { headers: bearer(scoped) })).statusCode).toBe(204);
    const gone = await patch({ name: 'too late' });
    expect([gone.statusCode, json(gone).error_code]).toEqual([404, 'source_not_found']);
  });

  it('makes a replication due at once when the credentials or settings change', async () => {
    const source = await createSource(scoped, {
      source_template_id: chatTemplate,
      name: 'Refreshing',
      credentials: { token: CHAT_TOKEN },
      replication_config: CONFIG,
      external_user_id: 'refreshing-user',
    });
    const state = async () => json(await call('GET', `api/v1/connectors/sources/${source.id}/replication`, scoped));
    await expect.poll(async () => (await state()).status, { timeout: 15_000 }).toBe('ready');
    const first = (await state()).finished_at;
    expect((await call('PATCH', `api/v1/embedded/sources/${source.id}`, scoped, { replication_config: { ...CONFIG, join_channels: true } })).statusCode).toBe(
      200,
    );
    await expect.poll(async () => ((await state()).status === 'ready' ? (await state()).finished_at : first), { timeout: 15_000 }).not.toBe(first);
    const messages = async () => (await state()).entities.channel_messages.records as number;
    const before = await messages();
    expect(before).toBeGreaterThan(0);
    // The same settings again change nothing: no refresh.
    const unchanged = (await state()).finished_at;
    const same = await call('PATCH', `api/v1/embedded/sources/${source.id}`, scoped, { name: 'Same', replication_config: { ...CONFIG, join_channels: true } });
    expect(same.statusCode).toBe(200);
    expect((await state()).finished_at).toBe(unchanged);
    // A later start date: what was stored from before it goes, and replication starts over from it.
    const later = { ...CONFIG, join_channels: true, start_date: '2100-01-01T00:00:00Z' };
    expect((await call('PATCH', `api/v1/embedded/sources/${source.id}`, scoped, { replication_config: later })).statusCode).toBe(200);
    await expect.poll(async () => ((await state()).status === 'ready' ? await messages() : before), { timeout: 15_000 }).toBe(0);
  });
});

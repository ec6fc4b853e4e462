/**
 * Checked credentials: a connector declares a `check` (one of its read actions and the upstream codes
 * that mean a refused credential); `client.checkCredentials()` runs it in-process, and creating a
 * hosted connector runs it before anything is stored, so a refused credential is a 400
 * `credentials_rejected` then, never a 502 at first use, while an upstream outage keeps its own status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, createRuntime, RateLimitedError, UpstreamError } from '../index.ts';
import type { ConnectorDefinition, CredentialCheck } from '../core/sdk/index.ts';
import chatConnector from '../connectors/chat/index.ts';
import fileStorage from '../connectors/file-storage/index.ts';
import weather from './fixtures/weather-connector/index.ts';
import { CHAT_TOKEN, rejectionOf, startChatFixture } from './helpers/chat-fixture.ts';
import { DRIVE_TOKEN, startDriveFixture } from './helpers/drive-fixture.ts';
import { BACKENDS, bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';

const REJECTED = { detail: expect.stringMatching(/rejected the credentials/), error_code: 'credentials_rejected' };
const TYPES = ['chat', 'file-storage'] as const;
const RIGHT = { chat: { token: CHAT_TOKEN }, 'file-storage': { access_token: DRIVE_TOKEN } };
const WRONG = { chat: { token: 'xoxb-wrong-secret-3' }, 'file-storage': { access_token: 'ya29.wrong-secret-3' } };
/** Longer than the manifests' maxRetryAfterSeconds: the 429 surfaces at once instead of being waited out. */
const LONG_RETRY_AFTER = 120;

describe('the check as declared', () => {
  const register = async (definition: ConnectorDefinition) => (await createRuntime({ builtins: false })).registerConnector(definition);
  const refusal = (definition: ConnectorDefinition) =>
    register(definition).then(
      () => '',
      (error: Error) => error.message,
    );
  const weatherChecking = (check: unknown): ConnectorDefinition => ({ ...weather, check: check as CredentialCheck });

  it('names a read action of the connector, with params its schema accepts and codes that are no rate limit', async () => {
    expect(await refusal(weatherChecking('stations.list'))).toMatch(/`check` must be an object/);
    expect(await refusal(weatherChecking({ entity: 'stations', action: 'update', rejectedCodes: ['bad_key'] }))).toMatch(
      /names stations\.update, which is not a declared action/,
    );
    expect(await refusal(weatherChecking({ entity: 'stations', action: 'list', rejectedCodes: [] }))).toMatch(/`check\.rejectedCodes` must list/);
    expect(await refusal(weatherChecking({ entity: 'stations', action: 'get', rejectedCodes: ['bad_key'] }))).toMatch(
      /check params do not fit stations\.get: .*id/,
    );
    expect(await refusal(weatherChecking({ entity: 'stations', action: 'get', params: { id: 's1', units: 'C' }, rejectedCodes: ['bad_key'] }))).toMatch(
      /check params do not fit/,
    );
    const limited = { ...weather.transport, errors: { ...weather.transport.errors, rateLimitCodes: ['slow_down'] } };
    expect(await refusal({ ...weatherChecking({ entity: 'stations', action: 'list', rejectedCodes: ['bad_key', 'slow_down'] }), transport: limited })).toMatch(
      /lists slow_down, declared in transport\.errors as a rate limit/,
    );
    // A write, a download or a hosted-only search would change something, stream bytes or call nobody.
    for (const [entity, action] of [
      ['messages', 'create'],
      ['users', 'search'],
    ] as const) {
      expect(await refusal({ ...chatConnector, check: { entity, action, rejectedCodes: ['invalid_auth'] } })).toMatch(/must name a read action/);
    }
    const download: CredentialCheck = { entity: 'files', action: 'download', params: { fileId: 'f', alt: 'media' }, rejectedCodes: ['authError'] };
    expect(await refusal({ ...fileStorage, check: download })).toMatch(/files\.download is not one/);
    expect(await register(weatherChecking({ entity: 'stations', action: 'get', params: { id: 's1' }, rejectedCodes: ['bad_key'] }))).toBe('weather');
  });

  it('is optional: without one, checkCredentials() answers unchecked without calling anybody', async () => {
    const runtime = await createRuntime({ builtins: false });
    runtime.registerConnector(weather);
    expect(await runtime.connector('weather', { credentials: { token: 'k' }, base_url: 'http://127.0.0.1:9/v1' }).checkCredentials()).toBe('unchecked');
  });
});

describe('checkCredentials() in-process', () => {
  it('chat: Slack auth.test accepts the token, refuses a wrong one (400), and an outage is no verdict', async () => {
    const fx = await startChatFixture();
    try {
      const before = fx.sandbox.requests.length;
      expect(await fx.chat.checkCredentials()).toBe('accepted');
      expect(fx.sandbox.requests.slice(before).map((entry) => [entry.httpMethod, entry.method])).toEqual([['GET', 'auth.test']]);
      const { result } = await fx.chat.auth_test.get();
      expect(result).toMatchObject({ user_id: fx.sandbox.botUserId, team_id: fx.sandbox.data.team.id, bot_id: expect.stringMatching(/^B/) });

      const wrong = fx.runtime.connector('chat', { credentials: { token: WRONG.chat.token }, base_url: fx.sandbox.url });
      const rejected = await rejectionOf(wrong.checkCredentials());
      expect([rejected.constructor, rejected.toJSON()]).toEqual([BadRequestError, { ...REJECTED, detail: expect.stringContaining('invalid_auth') }]);
      expect(`${rejected.message} ${JSON.stringify(rejected)}`).not.toContain(WRONG.chat.token);

      fx.sandbox.addFault({ method: 'auth.test', status: 429, retryAfter: LONG_RETRY_AFTER });
      const limited = await rejectionOf(fx.chat.checkCredentials());
      expect([limited.constructor, limited.status, (limited as RateLimitedError).retryAfterSeconds]).toEqual([RateLimitedError, 429, LONG_RETRY_AFTER]);
      // An upstream that cannot be reached (no retries here, to be quick) is a 502.
      const runtime = await createRuntime({ builtins: false });
      runtime.registerConnector({ ...chatConnector, transport: { ...chatConnector.transport, maxRetries: 0 } });
      const down = await rejectionOf(runtime.connector('chat', { credentials: RIGHT.chat, base_url: 'http://127.0.0.1:9/api' }).checkCredentials());
      expect([down.constructor, down.error_code]).toEqual([UpstreamError, 'upstream_econnrefused']);
    } finally {
      await fx.sandbox.close();
    }
  });

  it('file-storage: Drive about.get (fields=user) accepts the token; a refused token or one without a Drive scope is a 400', async () => {
    const fx = await startDriveFixture();
    try {
      expect(await fx.drive.checkCredentials()).toBe('accepted');
      expect(fx.sandbox.requests.at(-1)).toMatchObject({ httpMethod: 'GET', path: '/drive/v3/about', query: { fields: 'user' } });
      const wrong = fx.runtime.connector('file-storage', { credentials: { access_token: WRONG['file-storage'].access_token }, base_url: fx.sandbox.url });
      expect((await rejectionOf(wrong.checkCredentials())).toJSON()).toEqual({ ...REJECTED, detail: expect.stringContaining('authError') });
      fx.sandbox.addFault({ path: '/drive/v3/about', status: 403, reason: 'insufficientPermissions' });
      expect((await rejectionOf(fx.drive.checkCredentials())).toJSON()).toEqual({ ...REJECTED, detail: expect.stringContaining('insufficientPermissions') });
      fx.sandbox.addFault({ path: '/drive/v3/about', status: 429, retryAfter: LONG_RETRY_AFTER });
      expect((await rejectionOf(fx.drive.checkCredentials())).status).toBe(429);
    } finally {
      await fx.sandbox.close();
    }
  });
});

describe.each(BACKENDS)('hosted creation checks the credentials, on %s', (backend) => {
  let fx: HostedFixture;
  let scoped: string;

  beforeAll(async () => {
    fx = await startHostedFixture(backend);
    scoped = await fx.scopedToken('checked-credentials');
  });
  afterAll(async () => {
    await fx.close();
  });

  const json = (response: { body: string }) => JSON.parse(response.body);
  const create = (type: string, credentials: Record<string, string>, externalUserId: string) =>
    fx.http.post('v1/integrations/connectors', { headers: bearer(scoped), json: { external_user_id: externalUserId, connector_type: type, credentials } });
  const stored = async (externalUserId: string) =>
    json(await fx.http.get(`api/v1/integrations/connectors?external_user_id=${externalUserId}`, { headers: bearer(scoped) })).data;

  it('a refused credential is a 400 credentials_rejected and nothing is stored; the right one then makes the connector', async () => {
    for (const type of TYPES) {
      const refused = await create(type, WRONG[type], 'refused');
      expect([refused.statusCode, json(refused)], type).toEqual([400, REJECTED]);
      expect(refused.body).not.toContain(Object.values(WRONG[type])[0]);
    }
    expect(await stored('refused')).toEqual([]);
    for (const type of TYPES) expect((await create(type, RIGHT[type], 'refused')).statusCode).toBe(201);
    expect((await stored('refused')).map((c: { connector_type: string }) => c.connector_type).sort()).toEqual([...TYPES]);
    expect(fx.chatSandbox.requests.filter((entry) => entry.method === 'auth.test')).toHaveLength(2);
    // The hosted variant checks the credentials the server holds.
    const runtime = await createRuntime();
    const server = {
      external_user_id: 'refused',
      workspace_name: 'checked-credentials',
      client_id: fx.clientId,
      client_secret: fx.clientSecret,
      server_url: fx.server.url,
    };
    for (const type of TYPES) expect(await runtime.connector(type, server).checkCredentials()).toBe('accepted');
  });

  it('an embedded source is checked the same way', async () => {
    const operator = await fx.operatorToken();
    const template = json(
      await fx.http.post('api/v1/integrations/templates/sources', { headers: bearer(operator), json: { name: 'Slack', connector_type: 'chat' } }),
    );
    const source = (credentials: Record<string, string>) =>
      fx.http.post('api/v1/embedded/sources', {
        headers: bearer(scoped),
        json: { source_template_id: template.id, name: 'My Slack', credentials, external_user_id: 'embedded' },
      });
    const refused = await source(WRONG.chat);
    expect([refused.statusCode, json(refused)]).toEqual([400, REJECTED]);
    expect(await stored('embedded')).toEqual([]);
    expect((await source(RIGHT.chat)).statusCode).toBe(201);
  });

  it('an upstream down or rate-limiting during the check keeps its own status (502, 429), and nothing is stored', async () => {
    // Every attempt fails: the first and the manifest's 3 retries (with backoff, about 5 s).
    fx.chatSandbox.addFault({ method: 'auth.test', status: 503, count: 4 });
    fx.driveSandbox.addFault({ path: '/drive/v3/about', status: 503, count: 4 });
    const down = await Promise.all(TYPES.map((type) => create(type, RIGHT[type], 'outage')));
    for (const response of down) expect([response.statusCode, json(response).error_code]).toEqual([502, expect.not.stringMatching(/credentials_rejected/)]);
    fx.chatSandbox.addFault({ method: 'auth.test', status: 429, retryAfter: LONG_RETRY_AFTER });
    fx.driveSandbox.addFault({ path: '/drive/v3/about', status: 429, retryAfter: LONG_RETRY_AFTER });
    for (const type of TYPES) {
      const limited = await create(type, RIGHT[type], 'outage');
      expect([limited.statusCode, limited.headers['retry-after']], type).toEqual([429, String(LONG_RETRY_AFTER)]);
    }
    expect(await stored('outage')).toEqual([]);
    for (const type of TYPES) expect((await create(type, RIGHT[type], 'outage')).statusCode).toBe(201);
  });
});

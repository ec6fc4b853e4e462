import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CloudApiError,
  CloudClientConfig,
  CloudWorkspace,
  configApiRootFor,
  InputError,
  MissingResourceError,
  PLUGBOARD_CLOUD_API_ROOT,
  Secret,
  SecretNotFoundError,
} from '../core/cloud-client/index.ts';
import { ApiClient } from '../core/cloud-client/http/api-client.ts';
import { CLIENT_ID, CLIENT_SECRET, FakeCloudServer } from './helpers/cloud-fake-server.ts';

/** CloudClientConfig's rules, secrets kept out of every rendering, and the HTTP client's tokens and errors. */

describe('CloudClientConfig', () => {
  it('takes exactly one auth method', () => {
    expect(new CloudClientConfig({ bearerToken: 'b' }).usesBearerToken).toBe(true);
    const credentials = new CloudClientConfig({ clientId: 'i', clientSecret: 's' });
    expect(credentials.usesClientCredentials).toBe(true);
    expect(credentials.usesBearerToken).toBe(false);
    expect(credentials.apiRoot).toBe(PLUGBOARD_CLOUD_API_ROOT);
    expect(() => new CloudClientConfig({ bearerToken: 'b', clientId: 'i', clientSecret: 's' })).toThrow(InputError);
    expect(() => new CloudClientConfig({})).toThrow(InputError);
    expect(() => new CloudClientConfig({ bearerToken: null, clientId: null, clientSecret: null })).toThrow(InputError);
    expect(() => new CloudClientConfig({ clientId: 'i' })).toThrow(InputError);
    expect(() => new CloudClientConfig({ clientSecret: 's' })).toThrow(InputError);
    expect(() => new CloudClientConfig({ bearerToken: 'b', apiRoot: 'ftp://x' })).toThrow(InputError);
    expect(() => new CloudWorkspace({ workspaceId: 'w' })).toThrow(InputError);
    expect(() => new CloudWorkspace({ workspaceId: 'w', bearerToken: 'b', clientId: 'i', clientSecret: 's' })).toThrow(InputError);
  });

  it('reads the environment: the bearer token first, else both client credentials', () => {
    const both = { PLUGBOARD_CLOUD_BEARER_TOKEN: 'b', PLUGBOARD_CLOUD_CLIENT_ID: 'i', PLUGBOARD_CLOUD_CLIENT_SECRET: 's' };
    expect(CloudClientConfig.fromEnv(undefined, both).usesBearerToken).toBe(true);
    const credentials = CloudClientConfig.fromEnv(undefined, { PLUGBOARD_CLOUD_CLIENT_ID: 'i', PLUGBOARD_CLOUD_CLIENT_SECRET: 's' });
    expect(credentials.usesClientCredentials).toBe(true);
    expect(credentials.clientSecret?.reveal()).toBe('s');
    expect(() => CloudClientConfig.fromEnv(undefined, { PLUGBOARD_CLOUD_CLIENT_SECRET: 's' })).toThrow(
      expect.objectContaining({ secretName: 'PLUGBOARD_CLOUD_CLIENT_ID' }),
    );
    expect(() => CloudClientConfig.fromEnv(undefined, { PLUGBOARD_CLOUD_CLIENT_ID: 'i' })).toThrow(SecretNotFoundError);
    expect(() => CloudClientConfig.fromEnv(undefined, {})).toThrow(SecretNotFoundError);
    // The argument beats PLUGBOARD_CLOUD_API_URL, which beats the default.
    expect(CloudClientConfig.fromEnv(undefined, { ...both, PLUGBOARD_CLOUD_API_URL: 'http://h/v1/' }).apiRoot).toBe('http://h/v1');
    expect(CloudClientConfig.fromEnv('http://arg/v1', { ...both, PLUGBOARD_CLOUD_API_URL: 'http://h/v1' }).apiRoot).toBe('http://arg/v1');
    expect(CloudClientConfig.fromEnv(undefined, both).apiRoot).toBe(PLUGBOARD_CLOUD_API_ROOT);
  });

  it('reads the workspace id from the environment when not given', () => {
    const env = { PLUGBOARD_CLOUD_BEARER_TOKEN: 'b', PLUGBOARD_CLOUD_WORKSPACE_ID: 'ws-env', PLUGBOARD_CLOUD_API_URL: 'http://h/v1' };
    const workspace = CloudWorkspace.fromEnv(undefined, undefined, { env });
    expect(workspace.workspaceId).toBe('ws-env');
    expect(workspace.workspaceUrl).toBe('http://h/v1/workspaces/ws-env');
    expect(CloudWorkspace.fromEnv('given', 'http://other/v1', { env }).workspaceUrl).toBe('http://other/v1/workspaces/given');
    expect(() => CloudWorkspace.fromEnv(undefined, undefined, { env: { PLUGBOARD_CLOUD_BEARER_TOKEN: 'b' } })).toThrow(
      expect.objectContaining({ secretName: 'PLUGBOARD_CLOUD_WORKSPACE_ID' }),
    );
    expect(() => CloudWorkspace.fromEnv('w', undefined, { env: {} })).toThrow(SecretNotFoundError);
  });

  it('never shows a secret', () => {
    const secrets = ['the-client-id-1', 'the-client-secret-2', 'the-bearer-token-3'];
    const credentials = new CloudClientConfig({ clientId: secrets[0], clientSecret: secrets[1], apiRoot: 'http://h/v1' });
    const bearer = new CloudClientConfig({ bearerToken: secrets[2] });
    const workspace = new CloudWorkspace({ workspaceId: 'w', clientId: secrets[0], clientSecret: secrets[1] });
    const renderings = [credentials, bearer, workspace, new Secret(secrets[1]!)].flatMap((value) => [
      String(value),
      `${value}`,
      JSON.stringify(value),
      JSON.stringify({ nested: value }),
      inspect(value, { depth: 10, showHidden: true }),
      inspect({ nested: value }, { depth: 10 }),
    ]);
    for (const text of renderings) for (const secret of secrets) expect(text).not.toContain(secret);
    expect(JSON.stringify(credentials)).toContain('****');
    expect(String(bearer)).toContain('bearer token');
  });

  it('derives the config API root from the public one', () => {
    expect(configApiRootFor('http://127.0.0.1:8080/v1')).toBe('http://127.0.0.1:8080/api/v1');
    expect(configApiRootFor('http://localhost:8000/api/public/v1/')).toBe('http://localhost:8000/api/v1');
    expect(configApiRootFor('https://api.airbyte.com/v1')).toBe('https://cloud.airbyte.com/api/v1');
    expect(configApiRootFor(PLUGBOARD_CLOUD_API_ROOT)).toBe('https://api.plugboard.dev/api/v1');
    expect(() => configApiRootFor('http://h/public')).toThrow(InputError);
    expect(new CloudClientConfig({ bearerToken: 'b', apiRoot: 'http://h/public', configApiRoot: 'http://c/api/v1' }).configApiRoot).toBe('http://c/api/v1');
  });
});

describe('the HTTP client', () => {
  let fake: FakeCloudServer;
  beforeAll(async () => {
    fake = await FakeCloudServer.start();
    fake.on('GET', '/v1/things/:id', (_request, { id }) => (id === 'gone' ? { status: 404, body: { detail: 'no such thing' } } : { body: { id } }));
    fake.on('GET', '/v1/broken', () => ({ status: 400, body: { type: 'urn:x', title: 'Bad', status: 400, detail: 'it is broken', issues: [] } }));
    fake.on('POST', '/api/v1/echo', (request) => ({ body: request.body }));
    let flaky = 0;
    fake.on('GET', '/v1/flaky', () => (++flaky === 1 ? { status: 503, body: { detail: 'busy' } } : { body: { tries: flaky } }));
    fake.on('POST', '/v1/flaky', () => ({ status: 503, body: { detail: 'busy' } }));
  });
  afterAll(() => fake.close());

  const client = (options: ConstructorParameters<typeof CloudClientConfig>[0] = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }) =>
    new ApiClient(new CloudClientConfig({ apiRoot: fake.apiRoot, ...options }));

  it('fetches a token once, caches it, and sends it on every call', async () => {
    fake.requests.length = 0;
    const api = client();
    await Promise.all([api.get('/things/a'), api.get('/things/b'), api.get('/things/c')]);
    expect(await api.get('/things/d')).toEqual({ id: 'd' });
    const [tokenRequest] = fake.tokenRequests();
    expect(fake.tokenRequests()).toHaveLength(1);
    expect(tokenRequest!.body).toEqual({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, grant_type: 'client_credentials' });
    const tokens = new Set(fake.apiRequests().map((request) => request.headers.authorization));
    expect([...tokens]).toHaveLength(1);
    // The config API is the derived root.
    expect(await api.configPost('/echo', { a: 1 })).toEqual({ a: 1 });
  });

  it('renews a token shortly before it expires', async () => {
    fake.requests.length = 0;
    fake.expiresIn = 1;
    try {
      const api = client();
      await api.get('/things/a');
      await new Promise((resolve) => setTimeout(resolve, 600));
      await api.get('/things/b');
      expect(fake.tokenRequests()).toHaveLength(2);
    } finally {
      fake.expiresIn = 900;
    }
  });

  it('renews a token refused with 401 once, then gives up', async () => {
    fake.requests.length = 0;
    const api = client();
    await api.get('/things/a');
    fake.validTokens.clear();
    expect(await api.get('/things/b')).toEqual({ id: 'b' });
    expect(fake.tokenRequests()).toHaveLength(2);
    const [first, refused, retried] = fake.apiRequests().map((request) => request.headers.authorization);
    expect(refused).toBe(first);
    expect(retried).not.toBe(first);

    // A server that refuses every token: one renewal, then the 401.
    const stubborn = await FakeCloudServer.start();
    try {
      stubborn.on('GET', '/v1/x', () => ({ body: {} }));
      const api2 = new ApiClient(new CloudClientConfig({ apiRoot: stubborn.apiRoot, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }));
      stubborn.acceptTokens = false;
      const failure: any = await api2.get('/x').catch((error: any) => error);
      expect(failure).toBeInstanceOf(CloudApiError);
      expect(failure.status).toBe(401);
      expect(stubborn.tokenRequests()).toHaveLength(2);
      expect(stubborn.apiRequests()).toHaveLength(2);
    } finally {
      await stubborn.close();
    }
  });

  it('does not renew a bearer token', async () => {
    fake.requests.length = 0;
    const failure: any = await client({ bearerToken: 'not-a-token' })
      .get('/things/a')
      .catch((error: any) => error);
    expect(failure).toBeInstanceOf(CloudApiError);
    expect(failure.status).toBe(401);
    expect(failure.problem).toEqual({ detail: 'Invalid authentication credentials' });
    expect(fake.tokenRequests()).toHaveLength(0);
    expect(fake.apiRequests()).toHaveLength(1);
    expect(failure.message).not.toContain('not-a-token');
    expect(inspect(failure)).not.toContain('not-a-token');
  });

  it('keeps credentials out of a refused token request', async () => {
    const failure: any = await client({ clientId: 'secret-id-x', clientSecret: 'secret-secret-y' })
      .get('/things/a')
      .catch((error: any) => error);
    expect(failure).toBeInstanceOf(CloudApiError);
    expect(failure.status).toBe(401);
    for (const text of [failure.message, inspect(failure), JSON.stringify(failure)]) {
      expect(text).not.toContain('secret-id-x');
      expect(text).not.toContain('secret-secret-y');
    }
  });

  it('tries a read again when the server is unavailable, never a create', async () => {
    const api = client();
    expect(await api.get('/flaky')).toEqual({ tries: 2 });
    fake.requests.length = 0;
    const refused: any = await api.post('/flaky', { name: 'x' }).catch((error: any) => error);
    expect(refused).toBeInstanceOf(CloudApiError);
    expect(refused.status).toBe(503);
    expect(fake.apiRequests().filter((request) => request.path === '/v1/flaky')).toHaveLength(1);
  });

  it('maps failures: the problem JSON on CloudApiError, a 404 of a resource to MissingResourceError', async () => {
    const api = client();
    const broken: any = await api.get('/broken').catch((error: any) => error);
    expect(broken).toBeInstanceOf(CloudApiError);
    expect(broken.problem).toMatchObject({ detail: 'it is broken', status: 400 });
    expect(broken.message).toContain('it is broken');
    const missing: any = await api.get('/things/gone', { resource: { type: 'thing', id: 'gone' } }).catch((error: any) => error);
    expect(missing).toBeInstanceOf(MissingResourceError);
    expect(missing).toMatchObject({ resourceType: 'thing', resourceId: 'gone' });
    expect(missing.cause).toBeInstanceOf(CloudApiError);
    expect(await api.get('/things/gone').catch((error: any) => error)).toBeInstanceOf(CloudApiError);
    const unreachable: any = await new ApiClient(new CloudClientConfig({ bearerToken: 'b', apiRoot: 'http://127.0.0.1:1/v1' }))
      .get('/x')
      .catch((error: any) => error);
    expect(unreachable.name).toBe('CloudError');
  });
});

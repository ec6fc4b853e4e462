import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { BACKENDS, bearer, startHostedFixture, TEST_PUBLIC_URL, type HostedFixture } from './helpers/hosted-fixture.ts';
import { type Answer, HostedConformance, recordAnswer } from './helpers/hosted-openapi.ts';
import { PublicApiSpec } from './helpers/public-api-spec.ts';

/**
 * The public cloud API (token, workspaces) against Airbyte's official description: every request
 * the tests send and every answer they get is checked against api_sdk.yaml / api.yaml.
 */

const spec = PublicApiSpec.load();

describe.each(BACKENDS)('public cloud API on %s', (backend) => {
  let fx: HostedFixture;
  let token: string;
  /** Every answer of this suite, checked against the server's own /openapi.json by the last test. */
  const answers: Answer[] = [];

  beforeAll(async () => {
    fx = await startHostedFixture(backend);
    fx.http = fx.http.extend({ hooks: { afterResponse: [recordAnswer(answers)] } });
    token = (await accessToken()).access_token;
  });
  afterAll(async () => {
    await fx.close();
  });

  const json = (response: { body: string }) => JSON.parse(response.body);
  /** A call that the spec knows: its JSON body and its answer are checked against the operation. */
  async function call(
    method: 'get' | 'post' | 'patch' | 'delete',
    specPath: string,
    path: string,
    options: { body?: unknown; token?: string; prefix?: string } = {},
  ) {
    if (options.body !== undefined) expect(spec!.requestProblems(method, specPath, options.body), `${method} ${specPath} request`).toEqual([]);
    const response = await fx.http(`${(options.prefix ?? 'v1').replace(/^\//, '')}${path}`, {
      method: method.toUpperCase() as 'GET',
      headers: bearer(options.token ?? token),
      ...(options.body === undefined ? {} : { json: options.body }),
    });
    const body = response.body.length > 0 ? json(response) : undefined;
    if (response.statusCode < 300) expect(spec!.responseProblems(method, specPath, response.statusCode, body), `${method} ${specPath} answer`).toEqual([]);
    else expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    return { status: response.statusCode, body };
  }
  async function accessToken(form = false) {
    const credentials = { client_id: fx.clientId, client_secret: fx.clientSecret, grant_type: 'client_credentials' };
    const response = form
      ? await fx.http.post('v1/applications/token', { form: credentials })
      : await fx.http.post('api/public/v1/applications/token', { json: credentials });
    expect(response.statusCode, response.body).toBe(200);
    expect(spec!.responseProblems('post', '/applications/token', 200, json(response))).toEqual([]);
    return json(response) as { access_token: string; token_type: string; expires_in: number };
  }

  it('issues access tokens for the application credentials, as JSON or form-encoded', async () => {
    expect(await accessToken(true)).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    // Some clients send no grant_type at all.
    const bare = await fx.http.post('v1/applications/token', { json: { client_id: fx.clientId, client_secret: fx.clientSecret } });
    expect(bare.statusCode).toBe(200);
    const refused = await fx.http.post('v1/applications/token', {
      form: { client_id: fx.clientId, client_secret: 'wrong-secret', grant_type: 'client_credentials' },
    });
    expect([refused.statusCode, refused.headers['content-type']]).toEqual([401, 'application/problem+json']);
    expect(json(refused)).toEqual({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'Invalid authentication credentials' });
    const invalid = await fx.http.post('v1/applications/token', { form: { client_id: fx.clientId, grant_type: 'password' } });
    expect(invalid.statusCode).toBe(400);
    expect(json(invalid).issues.map((issue: { loc: string[] }) => issue.loc.join('.'))).toEqual(
      expect.arrayContaining(['body.client_secret', 'body.grant_type']),
    );
    const nul = await fx.http.post('v1/applications/token', { form: { client_id: 'a\u0000b', client_secret: 'x' } });
    expect(nul.statusCode).toBe(400);
    expect(fx.logs.join('\n')).not.toContain(fx.clientSecret);
    expect(refused.body + invalid.body).not.toContain(fx.clientSecret);
    // The public API takes operator tokens only.
    expect((await call('get', '/workspaces', '/workspaces', { token: await fx.scopedToken('someone') })).status).toBe(401);
  });

  it('issues tokens at the root too, where the official SDK posts them form-encoded by default (a /v1 server URL and /applications/token)', async () => {
    const credentials = { grant_type: 'client_credentials', client_id: fx.clientId, client_secret: fx.clientSecret };
    for (const response of [await fx.http.post('applications/token', { form: credentials }), await fx.http.post('applications/token', { json: credentials })]) {
      expect(response.statusCode, response.body).toBe(200);
      expect(spec!.responseProblems('post', '/applications/token', 200, json(response))).toEqual([]);
      expect(json(response).token_type.toLowerCase()).toBe('bearer');
      expect((await call('get', '/workspaces', '/workspaces', { token: json(response).access_token })).status).toBe(200);
    }
    const refused = await fx.http.post('applications/token', { form: { ...credentials, client_secret: 'wrong-secret' } });
    expect([refused.statusCode, refused.headers['content-type']]).toEqual([401, 'application/problem+json']);
    const invalid = await fx.http.post('applications/token', { form: { client_id: fx.clientId } });
    expect([invalid.statusCode, json(invalid).issues[0].loc]).toEqual([400, ['body', 'client_secret']]);
  });

  it('answers a path the public API does not have with a problem-JSON 404, and a method it lacks with a problem-JSON 405', async () => {
    for (const root of ['v1', 'api/public/v1']) {
      const nowhere = await fx.http.get(`${root}/nowhere`, { headers: bearer(token) });
      expect([nowhere.statusCode, nowhere.headers['content-type']], root).toEqual([404, 'application/problem+json']);
      expect(json(nowhere)).toEqual({
        type: 'urn:plugboard:error:operation_not_found',
        title: 'Not Found',
        status: 404,
        detail: `No operation at /${root}/nowhere`,
      });
      const wrongMethod = await fx.http.put(`${root}/workspaces`, { headers: bearer(token), json: {} });
      expect([wrongMethod.statusCode, wrongMethod.headers['content-type']], root).toEqual([405, 'application/problem+json']);
      expect(json(wrongMethod)).toMatchObject({ type: 'urn:plugboard:error:method_not_allowed', title: 'Method Not Allowed', status: 405 });
      expect(wrongMethod.headers.allow).toMatch(/GET/);
      // Without a token too: nothing is there to authenticate for.
      expect((await fx.http.delete(`${root}/tags`)).statusCode, root).toBe(405);
      expect((await fx.http.get(`${root}`)).headers['content-type'], root).toBe('application/problem+json');
    }
    // Elsewhere the server's own error body stays.
    const elsewhere = await fx.http.get('api/v1/nowhere');
    expect([elsewhere.statusCode, json(elsewhere)]).toEqual([404, { detail: 'Not found' }]);
  });

  it('creates, reads, pages, updates and deletes workspaces, at /v1 and /api/public/v1 alike', async () => {
    const names = ['ws-a', 'ws-b', 'ws-c', 'ws-d', 'ws-e'];
    const created: Array<{ workspaceId: string; name: string }> = [];
    for (const name of names) {
      const answer = await call('post', '/workspaces', '/workspaces', { body: { name, notifications: { failure: { email: { enabled: true } } } } });
      expect(answer.status).toBe(200);
      created.push(answer.body);
    }
    expect(created[0]).toMatchObject({ name: 'ws-a', dataResidency: 'us', notifications: { failure: { email: { enabled: true } } } });
    const got = await call('get', '/workspaces/{workspaceId}', `/workspaces/${created[1]!.workspaceId}`, { prefix: 'api/public/v1' });
    expect(got).toEqual({ status: 200, body: created[1] });

    // Pages of 2 over the five (and any other workspace of the organization): next until the last page, previous after the first.
    const seen: string[] = [];
    let page = await call('get', '/workspaces', '/workspaces?limit=2');
    expect(page.body.previous).toBeUndefined();
    for (;;) {
      seen.push(...page.body.data.map((w: { name: string }) => w.name));
      if (!page.body.next) break;
      const next = new URL(page.body.next);
      expect(next.origin).toBe(TEST_PUBLIC_URL);
      page = await call('get', '/workspaces', `${next.pathname.replace(/^\/v1/, '')}${next.search}`);
      expect(page.body.previous).toMatch(/limit=2/);
    }
    expect(seen).toEqual(expect.arrayContaining(names));
    expect(new Set(seen).size).toBe(seen.length);
    const [a, b, c] = [created[0]!, created[1]!, created[2]!];
    const byIds = await call('get', '/workspaces', `/workspaces?workspaceIds=${a.workspaceId}&workspaceIds=${b.workspaceId},${c.workspaceId}`);
    expect(byIds.body.data.map((w: { name: string }) => w.name)).toEqual(['ws-a', 'ws-b', 'ws-c']);

    const renamed = await call('patch', '/workspaces/{workspaceId}', `/workspaces/${a.workspaceId}`, {
      body: { name: 'ws-a-renamed', regionId: 'b9e48d61-f082-4a14-a8d0-799a907938cb' },
    });
    expect(renamed.body).toMatchObject({ name: 'ws-a-renamed', dataResidency: 'eu', notifications: { failure: { email: { enabled: true } } } });
    const taken = await call('patch', '/workspaces/{workspaceId}', `/workspaces/${b.workspaceId}`, { body: { name: 'ws-a-renamed' } });
    expect([taken.status, taken.body.type]).toEqual([409, 'urn:plugboard:error:workspace_exists']);
    const duplicate = await call('post', '/workspaces', '/workspaces', { body: { name: 'ws-c' } });
    expect(duplicate.status).toBe(409);

    expect((await call('delete', '/workspaces/{workspaceId}', `/workspaces/${c.workspaceId}`)).status).toBe(204);
    const gone = await call('get', '/workspaces/{workspaceId}', `/workspaces/${c.workspaceId}`);
    expect([gone.status, gone.body.type]).toEqual([404, 'urn:plugboard:error:workspace_not_found']);
    expect((await call('delete', '/workspaces/{workspaceId}', `/workspaces/${c.workspaceId}`)).status).toBe(404);
  });

  it('serves every workspace route under both roots, /v1 and /api/public/v1', async () => {
    for (const prefix of ['v1', 'api/public/v1']) {
      const made = await call('post', '/workspaces', '/workspaces', { prefix, body: { name: `both-roots-${prefix}` } });
      const path = `/workspaces/${made.body.workspaceId}`;
      expect((await call('get', '/workspaces/{workspaceId}', path, { prefix })).body).toEqual(made.body);
      expect((await call('get', '/workspaces', `/workspaces?workspaceIds=${made.body.workspaceId}`, { prefix })).body.data).toEqual([made.body]);
      expect((await call('patch', '/workspaces/{workspaceId}', path, { prefix, body: { name: `renamed-${prefix}` } })).body.name).toBe(`renamed-${prefix}`);
      expect((await call('delete', '/workspaces/{workspaceId}', path, { prefix })).status).toBe(204);
    }
  });

  it('shares workspaces with the embedded endpoints, and deleting one deletes its connectors', async () => {
    const made = await call('post', '/workspaces', '/workspaces', { body: { name: 'shared-ws' } });
    // A scoped token for that name finds this very workspace instead of provisioning another.
    const scoped = await fx.scopedToken('shared-ws');
    const info = json(await fx.http.get('api/v1/embedded/scoped-token/info', { headers: bearer(scoped) }));
    expect(info['workspace ID']).toBe(made.body.workspaceId);
    const connector = await fx.createConnector('someone', 'chat', { token: CHAT_TOKEN }, scoped);
    // And a workspace the embedded endpoints provisioned is listed here.
    await fx.scopedToken('provisioned-by-a-token');
    const listed = await call('get', '/workspaces', '/workspaces?limit=100');
    expect(listed.body.data.map((w: { name: string }) => w.name)).toEqual(expect.arrayContaining(['shared-ws', 'provisioned-by-a-token']));

    expect((await call('delete', '/workspaces/{workspaceId}', `/workspaces/${made.body.workspaceId}`)).status).toBe(204);
    const operator = await fx.operatorToken();
    expect((await fx.http.get(`api/v1/integrations/connectors/${connector.id}`, { headers: bearer(operator) })).statusCode).toBe(404);
  });

  it('answers bad input and other organizations with problem details, never a 500', async () => {
    const other = await fx.server.hosted.applications.create('Another org');
    const otherToken = json(await fx.http.post('v1/applications/token', { json: { client_id: other.client_id, client_secret: other.client_secret } }))
      .access_token as string;
    const mine = await call('post', '/workspaces', '/workspaces', { body: { name: 'private-ws' } });
    // Another organization's workspace does not exist for it, whatever the route.
    for (const method of ['get', 'patch', 'delete'] as const) {
      const answer = await call(method, '/workspaces/{workspaceId}', `/workspaces/${mine.body.workspaceId}`, {
        token: otherToken,
        ...(method === 'patch' ? { body: { name: 'stolen' } } : {}),
      });
      expect(answer.status, method).toBe(404);
    }
    const foreignOrg = await fx.http.post('v1/workspaces', { headers: bearer(token), json: { name: 'x', organizationId: other.organization_id } });
    expect(foreignOrg.statusCode).toBe(403);
    for (const [body, loc] of [
      [{}, 'body.name'],
      [{ name: '' }, 'body.name'],
      [{ name: 'x', regionId: '00000000-0000-4000-8000-000000000000' }, 'body.regionId'],
      [{ name: 'x', notifications: 'all' }, 'body.notifications'],
      [{ name: 'x', extra: true }, 'body.extra'],
    ] as const) {
      const answer = await fx.http.post('v1/workspaces', { headers: bearer(token), json: body });
      expect([answer.statusCode, json(answer).issues?.[0]?.loc.join('.')], JSON.stringify(body)).toEqual([400, loc]);
      expect(json(answer)).toMatchObject({ type: 'about:blank', title: 'Bad Request', status: 400 });
    }
    for (const query of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc']) {
      expect((await fx.http.get(`v1/workspaces?${query}`, { headers: bearer(token) })).statusCode, query).toBe(400);
    }
    const malformed = await fx.http.post('v1/workspaces', { headers: { ...bearer(token), 'content-type': 'application/json' }, body: '{"name":' });
    expect([malformed.statusCode, malformed.headers['content-type']]).toEqual([400, 'application/problem+json']);
    const unknownId = await fx.http.get('v1/workspaces/not-a-uuid', { headers: bearer(token) });
    expect(unknownId.statusCode).toBe(404);
  });

  it('answers as its own /openapi.json declares, every token and workspace operation with a 2xx at least once', async () => {
    const conformance = new HostedConformance(JSON.parse((await fx.http.get('openapi.json')).body));
    expect([...new Set(answers.map((answer) => conformance.problemWith(answer)).filter(Boolean))]).toEqual([]);
    const succeeded = new Set(answers.filter((answer) => answer.status < 300).map((answer) => conformance.operationOf(answer)));
    // Its own operations: tokens and workspaces (sources, connections and the rest have their own suites).
    const own = conformance.operationKeys({ tagged: 'public API' }).filter((key) => /\/(applications\/token|workspaces(\/\{workspace_id\})?)$/.test(key));
    expect(own.filter((key) => !succeeded.has(key))).toEqual([]);
  });
});

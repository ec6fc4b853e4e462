import { randomUUID } from 'node:crypto';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGIONS } from '../core/hosted/regions.ts';
import { REFUSAL_MEMORY_MS } from '../core/hosted/widget-origins.ts';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { DRIVE_TOKEN } from './helpers/drive-fixture.ts';
import { sendRaw } from './helpers/raw-http.ts';
import { BACKENDS, bearer, DATA_KEYS, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';
import { HostedConformance, recordAnswer, type Answer } from './helpers/hosted-openapi.ts';
import connectorCreateRequest from '../schemas/server/connector-create-request.json' with { type: 'json' };
import connectorRecord from '../schemas/server/connector-record.json' with { type: 'json' };

const UNAUTHORIZED = { detail: 'Invalid authentication credentials' };
const FORBIDDEN = { detail: 'Access denied to this resource' };

describe.each(BACKENDS)('hosted server on %s', (backend) => {
  let fx: HostedFixture;
  let operator: string;
  /** Every answer fx.http got in this file, checked against /openapi.json by the last test. */
  const answers: Answer[] = [];

  beforeAll(async () => {
    fx = await startHostedFixture(backend);
    fx.http = fx.http.extend({ hooks: { afterResponse: [recordAnswer(answers)] } });
    operator = await fx.operatorToken();
  });
  afterAll(async () => {
    await fx.close();
  });

  const post = (path: string, token: string | null, json?: unknown, headers: Record<string, string> = {}) =>
    fx.http.post(path, { headers: { ...(token ? bearer(token) : {}), ...headers }, ...(json === undefined ? {} : { json }) });
  const get = (path: string, token: string | null, headers: Record<string, string> = {}) =>
    fx.http.get(path, { headers: { ...(token ? bearer(token) : {}), ...headers } });
  const json = (response: { body: string }) => JSON.parse(response.body);

  const createChatConnector = (scoped: string, externalUserId = 'user-1') => fx.createConnector(externalUserId, 'chat', { token: CHAT_TOKEN }, scoped);

  describe('operator token', () => {
    it('is issued for good application credentials', async () => {
      const response = await post('api/v1/account/applications/token', null, { client_id: fx.clientId, client_secret: fx.clientSecret });
      expect(response.statusCode).toBe(200);
      const body = json(response);
      expect(body).toEqual({
        access_token: expect.any(String),
        token_type: 'bearer',
        expires_in: 900,
        organization_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      const claims = decodeJwt(body.access_token);
      expect(claims.exp! - claims.iat!).toBe(900);
      expect(claims).toMatchObject({ token_use: 'operator', sub: fx.clientId, organization_id: body.organization_id, iss: 'http://plugboard.test' });
      expect(decodeProtectedHeader(body.access_token)).toMatchObject({ alg: 'ES256', kid: expect.any(String) });
    });

    it('refuses wrong credentials with 401, and malformed bodies with 4xx', async () => {
      const wrong = await post('api/v1/account/applications/token', null, { client_id: fx.clientId, client_secret: 'nope' });
      expect([wrong.statusCode, json(wrong)]).toEqual([401, UNAUTHORIZED]);
      const unknown = await post('api/v1/account/applications/token', null, { client_id: 'nobody', client_secret: 'nope' });
      expect([unknown.statusCode, json(unknown)]).toEqual([401, UNAUTHORIZED]);
      const missing = await post('api/v1/account/applications/token', null, { client_id: fx.clientId });
      expect(missing.statusCode).toBe(422);
      expect(json(missing).detail).toEqual([{ loc: ['body', 'client_secret'], msg: 'field required', type: 'value_error.missing' }]);
      const wrongType = await post('api/v1/account/applications/token', null, { client_id: 7, client_secret: 'x' });
      expect(json(wrongType).detail[0]).toMatchObject({ loc: ['body', 'client_id'], type: 'type_error.str' });
      const malformed = await fx.http.post('api/v1/account/applications/token', { body: '{"client_id": ', headers: { 'content-type': 'application/json' } });
      expect([malformed.statusCode, json(malformed)]).toEqual([400, { detail: 'Malformed JSON body' }]);
      const huge = await post('api/v1/account/applications/token', null, { client_id: 'x'.repeat(100_000), client_secret: 'y' });
      expect([huge.statusCode, json(huge)]).toEqual([413, { detail: 'Request body too large' }]);
      const array = await fx.http.post('api/v1/account/applications/token', { body: '[1,2]', headers: { 'content-type': 'application/json' } });
      expect(array.statusCode).toBe(422);
      const badGzip = await fx.http.post('api/v1/account/applications/token', {
        body: 'not gzip',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      });
      expect([badGzip.statusCode, json(badGzip)]).toEqual([400, { detail: 'Malformed request body' }]);
      const proto = await fx.http.post('api/v1/account/applications/token', {
        body: '{"client_id":"a","client_secret":"b","__proto__":{"x":1}}',
        headers: { 'content-type': 'application/json' },
      });
      expect([proto.statusCode, json(proto)]).toEqual([400, { detail: 'Malformed JSON body' }]);
      const wrongMethod = await fx.http.put('api/v1/account/applications/token', { json: {} });
      expect([wrongMethod.statusCode, json(wrongMethod)]).toEqual([405, { detail: 'Method not allowed' }]);
      const nowhere = await fx.http.get('api/v1/nowhere');
      expect([nowhere.statusCode, json(nowhere)]).toEqual([404, { detail: 'Not found' }]);
    });
  });

  describe('request inputs, checked once for every route', () => {
    const nulIssue = (loc: Array<string | number>) => ({ loc, msg: 'NUL characters (U+0000) are not allowed', type: 'value_error.nul_character' });

    it('rejects U+0000 in body strings, object keys, path params and query values with 422, before the store', async () => {
      const scoped = await fx.scopedToken('nul');
      const connector = await createChatConnector(scoped, 'nul-user');
      const cases: Array<[Promise<{ statusCode: number; body: string }>, Array<string | number>]> = [
        [post('api/v1/account/applications/token', null, { client_id: 'a\u0000b', client_secret: 'x' }), ['body', 'client_id']],
        [post('api/v1/embedded/scoped-token', operator, { workspace_name: 'a\u0000b' }), ['body', 'workspace_name']],
        [
          post('api/v1/embedded/widget-token', operator, {
            workspace_name: 'w',
            allowed_origin: 'https://a.example',
            selected_source_template_tags: ['ok', 'b\u0000'],
          }),
          ['body', 'selected_source_template_tags', 1],
        ],
        [post('api/v1/integrations/templates/sources', operator, { name: 't\u0000', connector_type: 'chat' }), ['body', 'name']],
        [
          post('v1/integrations/connectors', scoped, { external_user_id: 'a\u0000b', connector_type: 'chat', credentials: { token: CHAT_TOKEN } }),
          ['body', 'external_user_id'],
        ],
        [
          post('v1/integrations/connectors', scoped, { external_user_id: 'u', connector_type: 'chat', credentials: { token: 'x\u0000' } }),
          ['body', 'credentials', 'token'],
        ],
        [
          post(`api/v1/connectors/sources/${connector.id}/execute`, scoped, {
            entity: 'messages',
            action: 'create',
            params: { channel: 'C1', text: 'hi\u0000' },
          }),
          ['body', 'params', 'text'],
        ],
        [
          post(`api/v1/connectors/sources/${connector.id}/execute`, scoped, { entity: 'users', action: 'list', params: { 'k\u0000': 1 } }),
          ['body', 'params', 'k\u0000'],
        ],
        [get('api/v1/integrations/connectors?external_user_id=a%00b', scoped), ['query', 'external_user_id']],
        [get('api/v1/integrations/connectors/a%00b', scoped), ['path', 'connector_id']],
        [fx.http.delete('api/v1/integrations/connectors/a%00b', { headers: bearer(scoped) }), ['path', 'connector_id']],
        [post('api/v1/connectors/sources/a%00b/execute', scoped, { entity: 'users', action: 'list' }), ['path', 'connector_id']],
      ];
      for (const [pending, loc] of cases) {
        const response = await pending;
        expect([response.statusCode, json(response)], JSON.stringify(loc)).toEqual([422, { detail: [nulIssue(loc)] }]);
      }
      // Authentication still comes first: no token, no look at the input.
      expect((await get('api/v1/integrations/connectors/a%00b', null)).statusCode).toBe(401);
    });

    it('rejects a lone UTF-16 surrogate in any body string or key with 422 naming its loc, on every store (never a 500, never two names merged)', async () => {
      const scoped = await fx.scopedToken('surrogates');
      const chat = await createChatConnector(scoped, 'surrogate-user');
      const files = await fx.createConnector('surrogate-user', 'file-storage', { access_token: DRIVE_TOKEN }, scoped);
      const lone = (loc: Array<string | number>) => ({ loc, msg: expect.stringContaining('lone UTF-16 surrogate'), type: 'value_error.lone_surrogate' });
      const cases: Array<[Promise<{ statusCode: number; body: string }>, Array<string | number>]> = [
        [post('api/v1/account/applications/token', null, { client_id: 'a\ud800', client_secret: 'x' }), ['body', 'client_id']],
        [post('api/v1/embedded/scoped-token', operator, { workspace_name: 'ws-\ud800' }), ['body', 'workspace_name']],
        [post('api/v1/embedded/scoped-token', operator, { workspace_name: 'ws-\udc00' }), ['body', 'workspace_name']],
        [
          post('api/v1/embedded/widget-token', operator, {
            workspace_name: 'w',
            allowed_origin: 'https://a.example',
            selected_source_template_tags: ['\udfff'],
          }),
          ['body', 'selected_source_template_tags', 0],
        ],
        [
          post('v1/integrations/connectors', scoped, { external_user_id: 'x\ud83d', connector_type: 'chat', credentials: { token: CHAT_TOKEN } }),
          ['body', 'external_user_id'],
        ],
        [
          post(`api/v1/connectors/sources/${files.id}/execute`, scoped, { entity: 'files', action: 'get', params: { fileId: '\ud800' } }),
          ['body', 'params', 'fileId'],
        ],
        [
          post(`api/v1/connectors/sources/${chat.id}/execute`, scoped, {
            entity: 'messages',
            action: 'create',
            params: { channel: 'C1', text: 'half an emoji \ud83d' },
          }),
          ['body', 'params', 'text'],
        ],
        [
          post(`api/v1/connectors/sources/${chat.id}/execute`, scoped, { entity: 'users', action: 'list', params: { 'k\udc00': 1 } }),
          ['body', 'params', 'k\udc00'],
        ],
      ];
      for (const [pending, loc] of cases) {
        const response = await pending;
        expect([response.statusCode, json(response)], JSON.stringify(loc)).toEqual([422, { detail: [lone(loc)] }]);
      }
      // A whole surrogate pair is a character like any other.
      expect((await post('api/v1/embedded/scoped-token', operator, { workspace_name: 'ws-\ud83d\ude00' })).statusCode).toBe(200);
      expect(await fx.server.hosted.store.findWorkspaceByName(fx.server.firstApplication!.organization_id, 'ws-\ufffd')).toBeNull();
    });

    it('rejects "." and ".." as an id with 422: in a path param, and in a param the connector puts in an upstream path', async () => {
      const scoped = await fx.scopedToken('dots');
      const files = await fx.createConnector('dots-user', 'file-storage', { access_token: DRIVE_TOKEN }, scoped);
      const dots = (loc: Array<string | number>) => ({ detail: [{ loc, msg: '"." and ".." are not ids', type: 'value_error.dot_segment' }] });
      for (const fileId of ['.', '..']) {
        const response = await post(`api/v1/connectors/sources/${files.id}/execute`, scoped, { entity: 'files', action: 'get', params: { fileId } });
        expect([response.statusCode, json(response)], fileId).toEqual([422, dots(['body', 'params', 'fileId'])]);
        const nested = await post(`api/v1/connectors/sources/${files.id}/execute`, scoped, {
          entity: 'permissions',
          action: 'get',
          params: { fileId: 'f', permissionId: fileId },
        });
        expect([nested.statusCode, json(nested)], fileId).toEqual([422, dots(['body', 'params', 'permissionId'])]);
      }
      // Sent as is (a client library would normalise the URL first): %2E%2E decodes to "..".
      for (const id of ['%2E', '%2e%2E']) {
        const response = await sendRaw(fx.server.url, { method: 'GET', path: `/api/v1/integrations/connectors/${id}`, headers: bearer(scoped) });
        expect([response.status, JSON.parse(response.body.toString())], id).toEqual([422, dots(['path', 'connector_id'])]);
      }
    });

    it('answers 415 for a non-empty body that is not JSON, and still validates a bodyless POST', async () => {
      const raw = (contentType: string | undefined, body: string) =>
        fx.http.post('api/v1/embedded/scoped-token', { headers: { ...bearer(operator), ...(contentType ? { 'content-type': contentType } : {}) }, body });
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'text/plain; charset=utf-8', undefined]) {
        const response = await raw(contentType, '{"workspace_name": "typed"}');
        expect([response.statusCode, json(response)], String(contentType)).toEqual([415, { detail: 'Content-Type must be application/json' }]);
      }
      expect((await raw('application/json; charset=utf-8', '{"workspace_name": "typed"}')).statusCode).toBe(200);
      const bodyless = await fx.http.post('api/v1/embedded/scoped-token', { headers: { ...bearer(operator), 'content-type': 'text/plain' } });
      expect([bodyless.statusCode, json(bodyless).detail]).toEqual([
        422,
        [{ loc: ['body', 'workspace_name'], msg: 'field required', type: 'value_error.missing' }],
      ]);
      expect((await fx.http.post('api/v1/embedded/scoped-token', { headers: bearer(operator) })).statusCode).toBe(422);
      // The token is checked before the body's type.
      expect((await fx.http.post('api/v1/embedded/scoped-token', { headers: { 'content-type': 'text/plain' }, body: 'x' })).statusCode).toBe(401);
    });
  });

  describe('scoped tokens and workspaces (made on first use, found by name after)', () => {
    it('creates a workspace on first use, returns it after, with info under the key "workspace ID"', async () => {
      const first = json(await post('api/v1/embedded/scoped-token', operator, { workspace_name: 'acme' }));
      const again = json(await post('api/v1/embedded/scoped-token', operator, { workspace_name: 'acme', region_id: REGIONS.EU }));
      const infoFirst = json(await get('api/v1/embedded/scoped-token/info', first.token));
      const infoAgain = json(await get('api/v1/embedded/scoped-token/info', again.token));
      expect(Object.keys(infoFirst).sort()).toEqual(['organization_id', 'workspace ID']);
      expect(infoFirst['workspace ID']).toMatch(/^[0-9a-f-]{36}$/);
      expect(infoAgain['workspace ID']).toBe(infoFirst['workspace ID']);
      const claims = decodeJwt(first.token);
      expect(claims.exp! - claims.iat!).toBe(1200);
      expect(claims['io.service.auth.workspace_scope']).toEqual({ workspaceId: infoFirst['workspace ID'] });
      // region_id counts only when the workspace is created.
      const workspace = await fx.server.hosted.store.getWorkspace(infoFirst['workspace ID']);
      expect(workspace?.region_id).toBe(REGIONS.US);
      const eu = json(await post('api/v1/embedded/scoped-token', operator, { workspace_name: 'acme-eu', region_id: REGIONS.EU }));
      const euId = json(await get('api/v1/embedded/scoped-token/info', eu.token))['workspace ID'];
      expect((await fx.server.hosted.store.getWorkspace(euId))?.region_id).toBe(REGIONS.EU);
    });

    it('rejects an unknown region and bad bodies with 422', async () => {
      const region = await post('api/v1/embedded/scoped-token', operator, { workspace_name: 'x', region_id: '00000000-0000-4000-8000-000000000000' });
      expect(region.statusCode).toBe(422);
      expect(json(region).detail[0].loc).toEqual(['body', 'region_id']);
      expect((await post('api/v1/embedded/scoped-token', operator, { workspace_name: 'x', region_id: 'eu' })).statusCode).toBe(422);
      const widgetRegion = await post('api/v1/embedded/widget-token', operator, {
        workspace_name: 'x',
        allowed_origin: 'https://a.example',
        region_id: 'nope',
      });
      expect(json(widgetRegion).detail).toEqual([{ loc: ['body', 'region_id'], msg: expect.stringContaining(REGIONS.EU), type: 'value_error.str.regex' }]);
      expect(json(await post('api/v1/embedded/scoped-token', operator, {})).detail).toEqual([
        { loc: ['body', 'workspace_name'], msg: 'field required', type: 'value_error.missing' },
      ]);
    });

    it('takes a region id in any letter case (UUIDs are case-insensitive) and stores it lower-case', async () => {
      const upper = json(await post('api/v1/embedded/scoped-token', operator, { workspace_name: 'acme-eu-upper', region_id: REGIONS.EU.toUpperCase() }));
      const id = json(await get('api/v1/embedded/scoped-token/info', upper.token))['workspace ID'];
      expect((await fx.server.hosted.store.getWorkspace(id))?.region_id).toBe(REGIONS.EU);
      const widgetToken = await post('api/v1/embedded/widget-token', operator, {
        workspace_name: 'widget-us-upper',
        allowed_origin: 'https://a.example',
        region_id: REGIONS.US.toUpperCase(),
      });
      expect(widgetToken.statusCode).toBe(200);
    });

    it('answers 401 for a missing, wrong-type, forged, expired, alg:none or wrong-key token', async () => {
      const scoped = await fx.scopedToken('acme');
      expect(json(await post('api/v1/embedded/scoped-token', null, { workspace_name: 'a' }))).toEqual(UNAUTHORIZED);
      expect((await post('api/v1/embedded/scoped-token', scoped, { workspace_name: 'a' })).statusCode).toBe(401);
      expect((await get('api/v1/embedded/scoped-token/info', operator)).statusCode).toBe(401);
      expect((await get('api/v1/embedded/scoped-token/info', 'not-a-jwt')).statusCode).toBe(401);
      expect((await fx.http.get('api/v1/embedded/scoped-token/info', { headers: { authorization: scoped } })).statusCode).toBe(401);

      const claims = decodeJwt(scoped);
      const { kid } = decodeProtectedHeader(scoped);
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT', kid })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
      expect((await get('api/v1/embedded/scoped-token/info', none)).statusCode).toBe(401);
      const tampered = scoped.split('.');
      tampered[1] = Buffer.from(JSON.stringify({ ...claims, 'io.service.auth.workspace_scope': { workspaceId: 'someone-else' } })).toString('base64url');
      expect((await get('api/v1/embedded/scoped-token/info', tampered.join('.'))).statusCode).toBe(401);

      const { privateKey } = await generateKeyPair('ES256');
      const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid }).sign(privateKey);
      expect((await get('api/v1/embedded/scoped-token/info', forged)).statusCode).toBe(401);

      const [record] = await fx.server.hosted.store.listSigningKeys();
      const realKey = await importJWK(JSON.parse(fx.server.hosted.keyring.decrypt(record!.private_jwk)) as JWK, 'ES256');
      const sign = (payload: Record<string, unknown>) => new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: record!.kid }).sign(realKey);
      const now = Math.floor(Date.now() / 1000);
      expect((await get('api/v1/embedded/scoped-token/info', await sign({ ...claims, iat: now - 3000, exp: now - 1800 }))).statusCode).toBe(401);
      expect((await get('api/v1/embedded/scoped-token/info', await sign({ ...claims, aud: 'someone-else' }))).statusCode).toBe(401);
      expect((await get('api/v1/embedded/scoped-token/info', await sign({ ...claims, iss: 'http://evil.test' }))).statusCode).toBe(401);
      expect((await get('api/v1/embedded/scoped-token/info', await sign({ ...claims }))).statusCode).toBe(200);
    });

    it('publishes the keys at /.well-known/jwks.json, and rotation keeps live tokens valid', async () => {
      const before = await fx.scopedToken('rotation');
      const jwks = createRemoteJWKSet(new URL(`${fx.server.url}/.well-known/jwks.json`));
      await jwtVerify(before, jwks, { issuer: 'http://plugboard.test', audience: 'plugboard-api' });
      const newKid = await fx.server.hosted.tokens.rotateSigningKey();
      const after = await fx.scopedToken('rotation');
      expect(decodeProtectedHeader(after).kid).toBe(newKid);
      expect(decodeProtectedHeader(before).kid).not.toBe(newKid);
      expect((await get('api/v1/embedded/scoped-token/info', before)).statusCode).toBe(200);
      expect((await get('api/v1/embedded/scoped-token/info', after)).statusCode).toBe(200);
      const keys = json(await get('.well-known/jwks.json', null)).keys as Array<{ kid: string; d?: string }>;
      expect(keys.map((k) => k.kid)).toEqual(expect.arrayContaining([newKid, decodeProtectedHeader(before).kid]));
      expect(keys.every((k) => k.d === undefined)).toBe(true);
    });
  });

  describe('widget tokens (template tag filters, allowed origin)', () => {
    const widget = async (body: Record<string, unknown>) => post('api/v1/embedded/widget-token', operator, { workspace_name: 'widget-ws', ...body });

    it('is base64 JSON of a scoped token and a widget URL carrying workspace, origin and filters', async () => {
      const response = await widget({
        allowed_origin: 'https://app.example.com',
        selected_source_template_tags: ['crm', 'chat'],
        selected_source_template_tags_mode: 'all',
      });
      expect(response.statusCode).toBe(200);
      const decoded = JSON.parse(Buffer.from(json(response).token, 'base64').toString());
      expect(Object.keys(decoded).sort()).toEqual(['token', 'widgetUrl']);
      const url = new URL(decoded.widgetUrl);
      expect(url.origin).toBe('http://plugboard.test');
      expect(url.searchParams.get('workspaceId')).toBe((decodeJwt(decoded.token)['io.service.auth.workspace_scope'] as { workspaceId: string }).workspaceId);
      expect(url.searchParams.get('allowedOrigin')).toBe('https://app.example.com');
      expect(url.searchParams.get('selectedSourceTemplateTags')).toBe('crm,chat');
      expect(url.searchParams.get('selectedSourceTemplateTagsMode')).toBe('all');
      expect(decodeJwt(decoded.token).widget).toMatchObject({
        allowed_origin: 'https://app.example.com',
        source_template_tags: ['crm', 'chat'],
        source_template_tags_mode: 'all',
      });
    });

    it('validates allowed_origin: scheme, host, optional port; no trailing slash, path or wildcard', async () => {
      for (const ok of [
        'https://app.example.com',
        'https://app.example.com:443',
        'http://localhost:3000',
        'HTTPS://A.COM',
        'http://[::1]:3000',
        'http://127.0.0.1:8081',
      ]) {
        expect((await widget({ allowed_origin: ok })).statusCode, ok).toBe(200);
      }
      const bads = [
        'https://app.example.com/',
        'app.example.com',
        'https://*.example.com',
        'https://app.example.com/path',
        '*',
        'ftp://app.example.com',
        'https://app.example.com:99999',
      ];
      bads.push(
        'https://.',
        'https://-',
        'https://a..com',
        'https://a.com:0',
        'https:a.com',
        'https://a.com?',
        'https://a.com#',
        'https://user@a.com',
        ' https://a.com',
        'https://a.com\n',
        'https://-a.com',
        'http://[::1',
        'https://a.com:',
      );
      for (const bad of bads) {
        const response = await widget({ allowed_origin: bad });
        expect(response.statusCode, bad).toBe(422);
        expect(json(response).detail[0].loc).toEqual(['body', 'allowed_origin']);
      }
      expect(json(await widget({})).detail).toEqual([{ loc: ['body', 'allowed_origin'], msg: 'field required', type: 'value_error.missing' }]);
      expect((await widget({ allowed_origin: 'https://a.com', selected_source_template_tags_mode: 'some' })).statusCode).toBe(422);
    });

    it('keeps allowed_origin as browsers send Origin: scheme and host lower-cased, default port dropped, matched case-insensitively', async () => {
      const issued = JSON.parse(Buffer.from(json(await widget({ allowed_origin: 'HTTPS://App.Example.COM:443' })).token, 'base64').toString());
      expect(decodeJwt(issued.token).widget).toMatchObject({ allowed_origin: 'https://app.example.com' });
      expect(new URL(issued.widgetUrl).searchParams.get('allowedOrigin')).toBe('https://app.example.com');
      const allowed = await get('api/v1/embedded/sources', issued.token, { origin: 'https://app.example.com' });
      expect([allowed.statusCode, allowed.headers['access-control-allow-origin']]).toEqual([200, 'https://app.example.com']);
      const ipv6 = JSON.parse(Buffer.from(json(await widget({ allowed_origin: 'http://[::1]:3000' })).token, 'base64').toString());
      expect((await get('api/v1/embedded/sources', ipv6.token, { origin: 'http://[::1]:3000' })).statusCode).toBe(200);
    });

    it('may list the templates its tags allow and list and create embedded sources, and nothing else: every other route answers 403', async () => {
      const issued = JSON.parse(Buffer.from(json(await widget({ allowed_origin: 'https://app.example' })).token, 'base64').toString());
      const asWidget = { ...bearer(issued.token), origin: 'https://app.example' };
      // A connector of the widget's own workspace: a refusal is the token kind's, not another workspace's.
      const connector = await createChatConnector(await fx.scopedToken('widget-ws'), 'widget-user');
      const refused = [
        { method: 'POST', path: `api/v1/connectors/sources/${connector.id}/execute`, json: { entity: 'users', action: 'list' } },
        { method: 'POST', path: 'v1/integrations/connectors', json: { external_user_id: 'w', connector_type: 'chat', credentials: { token: CHAT_TOKEN } } },
        { method: 'POST', path: 'integrations/connectors', json: { external_user_id: 'w', connector_type: 'chat', credentials: { token: CHAT_TOKEN } } },
        { method: 'GET', path: 'api/v1/integrations/connectors' },
        { method: 'GET', path: `api/v1/integrations/connectors/${connector.id}` },
        { method: 'DELETE', path: `api/v1/integrations/connectors/${connector.id}` },
        { method: 'GET', path: 'api/v1/embedded/scoped-token/info' },
        { method: 'POST', path: 'api/v1/embedded/scoped-token', json: { workspace_name: 'widget-ws' } },
        { method: 'POST', path: 'api/v1/embedded/widget-token', json: { workspace_name: 'widget-ws', allowed_origin: 'https://app.example' } },
        { method: 'GET', path: 'api/v1/integrations/templates/sources' },
        { method: 'POST', path: 'api/v1/integrations/templates/sources', json: { name: 't', connector_type: 'chat' } },
      ];
      for (const request of refused) {
        const response = await fx.http(request.path, { method: request.method as 'GET', headers: asWidget, ...(request.json ? { json: request.json } : {}) });
        expect([response.statusCode, json(response)], `${request.method} ${request.path}`).toEqual([403, FORBIDDEN]);
      }
      // Nothing was done: the connector is still there, and no other was made.
      const scopedList = json(await get('api/v1/integrations/connectors', await fx.scopedToken('widget-ws'))).data;
      expect(scopedList.map((c: { id: string }) => c.id)).toEqual([connector.id]);
      // Every authenticated route of the API description that does not list the widget token refuses it, and those that list it serve it.
      const doc = json(await get('openapi.json', null));
      for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, { security: Array<Record<string, string[]>> }>>)) {
        for (const [method, operation] of Object.entries(operations)) {
          if (operation.security.length === 0) continue;
          const response = await fx.http(path.slice(1).replace('{connector_id}', connector.id), {
            method: method.toUpperCase() as 'GET',
            headers: asWidget,
            ...(method === 'post' ? { json: {} } : {}),
          });
          if (operation.security.some((scheme) => 'widgetToken' in scheme)) expect(response.statusCode, `${method} ${path}`).not.toBe(403);
          else expect(response.statusCode, `${method} ${path}`).toBe(403);
        }
      }
      for (const path of ['api/v1/embedded/templates/sources', 'api/v1/embedded/templates/connections', 'api/v1/embedded/sources'])
        expect((await get(path, issued.token)).statusCode, path).toBe(200);
      // Sources for its workspace's own end user only: another user's connector key is not a widget's to take.
      const foreignKey = await post('api/v1/embedded/sources', issued.token, {
        source_template_id: randomUUID(),
        name: 'x',
        credentials: { token: CHAT_TOKEN },
        external_user_id: 'widget-user',
      });
      expect([foreignKey.statusCode, json(foreignKey).detail[0].loc, json(foreignKey).detail[0].type]).toEqual([
        422,
        ['body', 'external_user_id'],
        'value_error.not_allowed_for_widget',
      ]);
    });

    it('CORS answers only the allowed origin of a widget token', async () => {
      const decoded = JSON.parse(Buffer.from(json(await widget({ allowed_origin: 'http://localhost:3000' })).token, 'base64').toString());
      const allowed = await get('api/v1/embedded/sources', decoded.token, { origin: 'http://localhost:3000' });
      expect(allowed.statusCode).toBe(200);
      expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:3000');
      const other = await get('api/v1/embedded/sources', decoded.token, { origin: 'https://evil.example' });
      expect([other.statusCode, json(other)]).toEqual([403, FORBIDDEN]);
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      const plain = await get('api/v1/embedded/sources', await fx.scopedToken('acme'), { origin: 'http://localhost:3000' });
      expect(plain.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await fx.http('api/v1/embedded/sources', {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
      });
      expect(preflight.statusCode).toBe(204);
      expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/Authorization/i);
      expect(
        (await get('api/v1/integrations/templates/sources', operator, { origin: 'http://localhost:3000' })).headers['access-control-allow-origin'],
      ).toBeUndefined();
    });
  });

  describe('failed application-token attempts, behind a trusted proxy', () => {
    // Its own server: one proxy hop trusted, and low limits.
    let px: HostedFixture;
    beforeAll(async () => {
      px = await startHostedFixture(backend, {
        config: { trustedProxyHops: 1, credentialAttemptLimits: { failuresPerAddress: 2, failuresPerClient: 100, windowSeconds: 60 } },
      });
    });
    afterAll(() => px.close());

    it('count per caller address (the one the proxy appended), 429 with Retry-After past the limit, while other callers get their tokens', async () => {
      const attempt = (secret: string, forwardedFor: string) =>
        px.http.post('api/v1/account/applications/token', {
          json: { client_id: px.clientId, client_secret: secret },
          headers: { 'x-forwarded-for': forwardedFor },
        });
      // The proxy appends the address it saw: what the caller put before it is not trusted.
      for (const spoofed of ['10.9.9.1', '10.9.9.2']) expect((await attempt('wrong', `${spoofed}, 198.51.100.7`)).statusCode).toBe(401);
      const refused = await attempt('wrong', '10.9.9.3, 198.51.100.7');
      expect([refused.statusCode, json(refused)]).toEqual([
        429,
        { detail: expect.stringContaining('Too many failed attempts'), error_code: 'too_many_attempts' },
      ]);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await attempt(px.clientSecret, '198.51.100.7')).statusCode).toBe(429);
      expect((await attempt(px.clientSecret, '198.51.100.8')).statusCode).toBe(200);
    });
  });

  describe('CORS preflights: only for origins of live widget tokens, recorded for every instance', () => {
    // Its own servers and database: no origin issued by the tests above, and a clock the tests move.
    let cx: HostedFixture;
    let offset = 0;
    beforeAll(async () => {
      cx = await startHostedFixture(backend, { clock: () => Date.now() + offset });
    });
    afterAll(async () => {
      await cx.close();
    });

    const preflight = (origin: string, server = cx.server.url) =>
      cx.http(`${server}/api/v1/embedded/sources`, {
        prefixUrl: '',
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
      });
    const corsHeaders = (response: { headers: Record<string, unknown> }) => Object.keys(response.headers).filter((name) => name.startsWith('access-control-'));
    const issue = async (allowedOrigin: string, server = cx.server.url) => {
      const response = await cx.http.post(`${server}/api/v1/embedded/widget-token`, {
        prefixUrl: '',
        headers: bearer(await cx.operatorToken()),
        json: { workspace_name: 'cors', allowed_origin: allowedOrigin },
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    const expectRefused = async (origin: string, server?: string) => {
      const response = await preflight(origin, server);
      expect([response.statusCode, corsHeaders(response)], origin).toEqual([204, []]);
    };
    const expectAnswered = async (origin: string, server?: string) => {
      const response = await preflight(origin, server);
      expect([response.statusCode, response.headers['access-control-allow-origin']], origin).toEqual([204, origin]);
      return response;
    };

    it('refuses a never-issued origin, and answers one once a widget token was issued for it', async () => {
      await expectRefused('https://app.example.com');
      for (const never of ['https://never.example', 'null', 'not an origin', `https://${'a'.repeat(400)}.example`]) await expectRefused(never);
      await issue('https://app.example.com');
      const answered = await expectAnswered('https://app.example.com');
      expect(answered.headers).toMatchObject({
        'access-control-allow-methods': 'GET,POST,PATCH,DELETE',
        'access-control-allow-headers': 'Authorization,Content-Type',
        'access-control-max-age': '600',
      });
      // Compared as the real request is: case and an explicit default port do not matter, scheme and port do.
      await expectAnswered('HTTPS://App.Example.COM:443');
      for (const other of ['http://app.example.com', 'https://app.example.com:8443', 'https://other.app.example.com']) await expectRefused(other);
      // A record answers preflights only: a real request still gets CORS from its own token (a plain scoped token: none).
      const real = await cx.http.get('api/v1/embedded/scoped-token/info', {
        headers: { ...bearer(await cx.scopedToken('cors')), origin: 'https://app.example.com' },
      });
      expect([real.statusCode, real.headers['access-control-allow-origin']]).toEqual([200, undefined]);
    });

    it('refuses again once the record expired, answers after a restart and a re-issue, and prunes expired records', async () => {
      await issue('https://expiring.example');
      await cx.restart(); // a new process knows only what the store recorded
      await expectAnswered('https://expiring.example');
      offset += 1200_000 + 1_000; // past the widget's scoped token's exp
      await expectRefused('https://expiring.example');
      await expectRefused('https://app.example.com');
      offset += 60_000; // and past the prune's allowance for clock skew
      await issue('https://expiring.example');
      await expectAnswered('https://expiring.example');
      // The write pruned the record that expired more than a minute ago; the re-issued one was extended.
      const everRecorded = (origin: string) => cx.server.hosted.store.widgetOriginLiveUntil(origin, new Date(0).toISOString());
      expect(await everRecorded('https://app.example.com')).toBeNull();
      expect(Date.parse((await everRecorded('https://expiring.example'))!)).toBeGreaterThan(Date.now() + offset);
    });

    it.runIf(backend === 'postgres')('two instances sharing PostgreSQL: a widget token issued on one makes the preflight pass on the other', async () => {
      const other = await cx.startAnotherServer();
      await expectRefused('https://shared.example', other.url);
      await issue('https://shared.example');
      await issue('https://fresh.example');
      await expectAnswered('https://fresh.example', other.url);
      // The other instance remembered its refusal of shared.example, for a few seconds at most.
      offset += REFUSAL_MEMORY_MS;
      await expectAnswered('https://shared.example', other.url);
      await issue('https://back.example', other.url);
      await expectAnswered('https://back.example');
    });
  });

  describe('templates and embedded sources', () => {
    it('operators create and list templates; a widget sees them filtered by its tags, any or all', async () => {
      const create = async (kind: string, name: string, tags: string[], connectorType = 'chat') => {
        const response = await post(`api/v1/integrations/templates/${kind}`, operator, { name, connector_type: connectorType, tags });
        expect(response.statusCode, response.body).toBe(201);
        return json(response);
      };
      const crmChat = await create('sources', 'CRM chat', ['crm', 'chat']);
      const crmOnly = await create('sources', 'CRM files', ['crm'], 'file-storage');
      await create('sources', 'Untagged', []);
      await create('connections', 'Warehouse', ['warehouse']);
      expect(json(await get('api/v1/integrations/templates/sources', operator)).data).toHaveLength(3);
      expect(json(await get('api/v1/integrations/templates/connections', operator)).data.map((t: { name: string }) => t.name)).toEqual(['Warehouse']);
      expect((await get('api/v1/integrations/templates/sources', await fx.scopedToken('acme'))).statusCode).toBe(401);
      expect((await post('api/v1/integrations/templates/sources', operator, { name: 'x', connector_type: 'fax' })).statusCode).toBe(422);

      const widgetScoped = async (tags: string[], mode: 'any' | 'all') => {
        const token = json(
          await post('api/v1/embedded/widget-token', operator, {
            workspace_name: 'tags',
            allowed_origin: 'https://a.example',
            selected_source_template_tags: tags,
            selected_source_template_tags_mode: mode,
          }),
        ).token;
        return JSON.parse(Buffer.from(token, 'base64').toString()).token as string;
      };
      const names = async (token: string) =>
        json(await get('api/v1/embedded/templates/sources', token))
          .data.map((t: { name: string }) => t.name)
          .sort();
      expect(await names(await widgetScoped(['crm', 'chat'], 'any'))).toEqual(['CRM chat', 'CRM files']);
      expect(await names(await widgetScoped(['crm', 'chat'], 'all'))).toEqual(['CRM chat']);
      expect(await names(await widgetScoped([], 'any'))).toEqual(['CRM chat', 'CRM files', 'Untagged']);

      // An embedded source from an offered template; a template the widget does not offer is not found.
      const allOnly = await widgetScoped(['crm', 'chat'], 'all');
      const source = await post('api/v1/embedded/sources', allOnly, { source_template_id: crmChat.id, name: 'My Slack', credentials: { token: CHAT_TOKEN } });
      expect(source.statusCode, source.body).toBe(201);
      expect(json(source)).toMatchObject({ name: 'My Slack', connector_type: 'chat', source_template_id: crmChat.id, auth_type: 'token' });
      expect(source.body).not.toContain(CHAT_TOKEN);
      const hidden = await post('api/v1/embedded/sources', allOnly, { source_template_id: crmOnly.id, name: 'Files', credentials: { token: DRIVE_TOKEN } });
      expect([hidden.statusCode, json(hidden).error_code]).toEqual([404, 'source_template_not_found']);
      const listed = json(await get('api/v1/embedded/sources', allOnly)).data;
      expect(listed.map((s: { id: string }) => s.id)).toEqual([json(source).id]);
      expect((await post('api/v1/embedded/sources', allOnly, { source_template_id: crmChat.id, name: 'x' })).statusCode).toBe(422);
      // The widget may rename it (docs/hosted-api.md: the rules of PATCH are tested in embedded-sources.test.ts).
      const renamed = await fx.http.patch(`api/v1/embedded/sources/${json(source).id}`, { headers: bearer(allOnly), json: { name: 'Our Slack' } });
      expect([renamed.statusCode, json(renamed).name]).toEqual([200, 'Our Slack']);
    });
  });

  it('a correctly signed token naming an organization or workspace that no longer exists is a 401, never a foreign-key failure', async () => {
    const { tokens } = fx.server.hosted;
    const organizationId = fx.server.firstApplication!.organization_id;
    const goneOperator = await tokens.issueOperatorToken(fx.clientId, randomUUID());
    const application = await fx.server.hosted.store.findApplicationByClientId(fx.clientId);
    const goneWorkspace = await tokens.issueScopedToken(organizationId, randomUUID(), application!.id);
    const refused = [
      await post('api/v1/embedded/scoped-token', goneOperator, { workspace_name: 'anywhere' }),
      await post('api/v1/embedded/widget-token', goneOperator, { workspace_name: 'anywhere', allowed_origin: 'https://a.example' }),
      await post('api/v1/integrations/templates/sources', goneOperator, { name: 't', connector_type: 'chat' }),
      await post('v1/integrations/connectors', goneWorkspace, { external_user_id: 'u', connector_type: 'chat', credentials: { token: CHAT_TOKEN } }),
    ];
    for (const response of refused) expect([response.statusCode, json(response)]).toEqual([401, UNAUTHORIZED]);
  });

  describe('hosted connectors (create, list, get, delete; replication_config)', () => {
    it('creates on all three paths, lists, gets and deletes; never returns credentials', async () => {
      const scoped = await fx.scopedToken('three-paths');
      const created = [];
      for (const [index, path] of ['v1/integrations/connectors', 'integrations/connectors', 'api/v1/integrations/connectors'].entries()) {
        const response = await post(path, scoped, {
          external_user_id: index === 0 ? 'ext-9' : `ext-9-${index}`,
          connector_type: 'chat',
          name: `via ${path}`,
          credentials: { access_token: CHAT_TOKEN },
        });
        expect(response.statusCode, response.body).toBe(201);
        created.push(json(response));
      }
      expect(Object.keys(created[0]).sort()).toEqual(
        [
          'auth_status',
          'auth_type',
          'connector_type',
          'created_at',
          'external_user_id',
          'id',
          'name',
          'replication_config',
          'source_template_id',
          'workspace_id',
        ].sort(),
      );
      expect(created[0]).toMatchObject({ external_user_id: 'ext-9', connector_type: 'chat', auth_type: 'oauth', replication_config: null });
      const list = await get('api/v1/integrations/connectors?connector_type=chat', scoped);
      expect(json(list).data.map((c: { id: string }) => c.id)).toEqual(created.map((c) => c.id));
      expect(json(await get('api/v1/integrations/connectors?external_user_id=nobody', scoped)).data).toEqual([]);
      const repeated = await get('api/v1/integrations/connectors?external_user_id=ext-9&external_user_id=other&connector_type=chat', scoped);
      expect([repeated.statusCode, json(repeated).data.map((c: { id: string }) => c.id)]).toEqual([200, [created[0].id]]);
      const one = await get(`api/v1/integrations/connectors/${created[0].id}`, scoped);
      expect(json(one)).toEqual(created[0]);
      expect(`${list.body}${one.body}`).not.toContain(CHAT_TOKEN);
      expect((await fx.http.delete(`api/v1/integrations/connectors/${created[2].id}`, { headers: bearer(scoped) })).statusCode).toBe(204);
      const gone = await get(`api/v1/integrations/connectors/${created[2].id}`, scoped);
      expect([gone.statusCode, json(gone).error_code]).toEqual([404, 'connector_not_found']);
      // Stored encrypted: the database row holds no plaintext.
      const row = await fx.server.hosted.store.getConnector(created[0].id);
      expect(JSON.stringify(row)).not.toContain(CHAT_TOKEN);
    });

    it('keeps one connector per external user and type: a second create answers 409 connector_exists with the first one id, even among 200 at once', async () => {
      const scoped = await fx.scopedToken('one-per-user');
      const body = { external_user_id: 'once', connector_type: 'chat', credentials: { token: CHAT_TOKEN } };
      const first = await post('v1/integrations/connectors', scoped, body);
      expect(first.statusCode).toBe(201);
      const again = await post('v1/integrations/connectors', scoped, { ...body, name: 'a retry after a lost response' });
      expect([again.statusCode, json(again)]).toEqual([
        409,
        { detail: expect.stringContaining(json(first).id), error_code: 'connector_exists', connector_id: json(first).id },
      ]);
      // Another type, or another external user, is another connector.
      expect(
        (await post('v1/integrations/connectors', scoped, { ...body, connector_type: 'file-storage', credentials: { access_token: DRIVE_TOKEN } })).statusCode,
      ).toBe(201);
      expect((await post('v1/integrations/connectors', scoped, { ...body, external_user_id: 'twice' })).statusCode).toBe(201);
      // 200 creations at once for one new key: exactly one is made.
      const racing = await Promise.all(Array.from({ length: 200 }, () => post('v1/integrations/connectors', scoped, { ...body, external_user_id: 'racer' })));
      const statuses = racing.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(199);
      const winner = json(racing.find((response) => response.statusCode === 201)!).id;
      expect(new Set(racing.filter((response) => response.statusCode === 409).map((response) => json(response).connector_id))).toEqual(new Set([winner]));
      expect(json(await get('api/v1/integrations/connectors?external_user_id=racer', scoped)).data.map((c: { id: string }) => c.id)).toEqual([winner]);
    });

    it('validates credentials (exactly one kind) and the chat replication_config', async () => {
      const scoped = await fx.scopedToken('connectors');
      const attempt = (body: Record<string, unknown>) =>
        post('v1/integrations/connectors', scoped, { external_user_id: 'u', connector_type: 'chat', credentials: { token: CHAT_TOKEN }, ...body });
      expect((await attempt({ credentials: { token: 'a', access_token: 'b' } })).statusCode).toBe(422);
      expect((await attempt({ credentials: {} })).statusCode).toBe(422);
      expect((await attempt({ credentials: { password: 'p' } })).statusCode).toBe(422);
      expect(json(await attempt({ connector_type: 'fax' })).detail[0].loc).toEqual(['body', 'connector_type']);
      const missing = json(await post('v1/integrations/connectors', scoped, { connector_type: 'chat' }))
        .detail.map((i: { loc: string[] }) => i.loc.at(-1))
        .sort();
      expect(missing).toEqual(['external_user_id']);
      // Credentials are required by the type (a configured one takes `config` instead), checked once the body's shape holds.
      const noCredentials = json(await post('v1/integrations/connectors', scoped, { connector_type: 'chat', external_user_id: 'u' }));
      expect(noCredentials.detail).toEqual([{ loc: ['body', 'credentials'], msg: 'field required', type: 'value_error.missing' }]);
      const good = { start_date: '2024-01-01T00:00:00Z', lookback_window: 7, join_channels: true };
      expect(json(await attempt({ replication_config: good })).replication_config).toEqual(good);
      for (const bad of [
        { ...good, lookback_window: 366 },
        { ...good, lookback_window: -1 },
        { ...good, start_date: '2024-01-01' },
        { start_date: good.start_date, lookback_window: 1 },
        { ...good, join_channels: 'yes' },
      ]) {
        const response = await attempt({ replication_config: bad });
        expect(response.statusCode, JSON.stringify(bad)).toBe(422);
        expect(json(response).detail[0].loc[1]).toBe('replication_config');
      }
      expect(connectorCreateRequest.required).toEqual(['external_user_id', 'connector_type']);
    });

    it('refuses replication_config for a type without one (file-storage), on both create paths, and never 500s on a deeply nested one', async () => {
      const scoped = await fx.scopedToken('no-replication');
      const notSupported = {
        loc: ['body', 'replication_config'],
        msg: 'connector type "file-storage" takes no replication_config; leave the field out',
        type: 'value_error.replication_config_not_supported',
      };
      const files = (replicationConfig: unknown) =>
        post('v1/integrations/connectors', scoped, {
          external_user_id: 'u',
          connector_type: 'file-storage',
          credentials: { access_token: DRIVE_TOKEN },
          replication_config: replicationConfig,
        });
      for (const config of [{}, { start_date: '2024-01-01T00:00:00Z', lookback_window: 7, join_channels: true }, { anything: [1, 2, 3] }]) {
        const response = await files(config);
        expect([response.statusCode, json(response)], JSON.stringify(config)).toEqual([422, { detail: [notSupported] }]);
      }
      // As deep as a body may nest (64, the body counting as one): checked like any other value.
      const nested = (depth: number) => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const rawPost = (path: string, body: string) => fx.http.post(path, { headers: { ...bearer(scoped), 'content-type': 'application/json' }, body });
      const filesWith = (config: string) =>
        rawPost(
          'v1/integrations/connectors',
          `{"external_user_id":"u","connector_type":"file-storage","credentials":{"access_token":"t"},"replication_config":${config}}`,
        );
      const deepFiles = await filesWith(nested(62));
      expect([deepFiles.statusCode, json(deepFiles)]).toEqual([422, { detail: [notSupported] }]);
      const deepChat = await rawPost(
        'v1/integrations/connectors',
        `{"external_user_id":"u","connector_type":"chat","credentials":{"token":"t"},"replication_config":${nested(62)}}`,
      );
      expect(deepChat.statusCode).toBe(422);
      const connector = await createChatConnector(scoped);
      const deepParams = await rawPost(`api/v1/connectors/sources/${connector.id}/execute`, `{"entity":"users","action":"list","params":${nested(62)}}`);
      expect(deepParams.statusCode).toBe(422);
      // Deeper (enough to overflow a recursive JSON.stringify) is a 400 before the body is parsed.
      for (const tooDeep of [await filesWith(nested(63)), await filesWith(nested(30_000))]) {
        expect([tooDeep.statusCode, json(tooDeep).error_code]).toEqual([400, 'body_too_deep']);
      }
      expect(json(await get('api/v1/integrations/connectors?connector_type=file-storage', scoped)).data).toEqual([]);

      // An embedded source goes through the same check.
      const template = json(await post('api/v1/integrations/templates/sources', operator, { name: 'Drive', connector_type: 'file-storage' }));
      const embedded = await post('api/v1/embedded/sources', scoped, {
        source_template_id: template.id,
        name: 'My Drive',
        credentials: { access_token: DRIVE_TOKEN },
        replication_config: { a: 1 },
      });
      expect([embedded.statusCode, json(embedded)]).toEqual([422, { detail: [notSupported] }]);
      expect(
        (await post('api/v1/embedded/sources', scoped, { source_template_id: template.id, name: 'My Drive', credentials: { access_token: DRIVE_TOKEN } }))
          .statusCode,
      ).toBe(201);
    });
  });

  describe('execute (the same envelope as in-process)', () => {
    it('runs chat operations and answers the envelope', async () => {
      const scoped = await fx.scopedToken('exec');
      const connector = await createChatConnector(scoped);
      const response = await post(`api/v1/connectors/sources/${connector.id}/execute`, scoped, { entity: 'users', action: 'list', params: { limit: 3 } });
      expect(response.statusCode).toBe(200);
      const body = json(response);
      expect(body).toMatchObject({
        status: 'success',
        connector_metadata: { next_cursor: expect.any(String) },
        execution_metadata: { connector_id: connector.id, execution_time_ms: expect.any(Number) },
      });
      expect(body.result).toHaveLength(3);
      const posted = json(
        await post(`api/v1/connectors/sources/${connector.id}/execute`, scoped, { entity: 'channels', action: 'create', params: { name: 'hosted-room' } }),
      );
      expect(posted.result.name).toBe('hosted-room');
    });

    it('answers every error as {detail, error_code?}', async () => {
      const scoped = await fx.scopedToken('exec');
      const connector = await createChatConnector(scoped, 'user-errors');
      const execute = (json: unknown, token = scoped, id = connector.id) => post(`api/v1/connectors/sources/${id}/execute`, token, json);
      const unknown = await execute({ entity: 'emails', action: 'list' });
      expect([unknown.statusCode, json(unknown).detail[0].type]).toEqual([422, 'value_error.unknown_entity']);
      const notOffered = await execute({ entity: 'users', action: 'create' });
      expect(json(notOffered).detail[0]).toMatchObject({ loc: ['body', 'action'], type: 'value_error.action_not_allowed' });
      expect(json(await execute({ entity: 'channels', action: 'get' })).detail).toEqual([
        { loc: ['body', 'params', 'channel'], msg: 'field required', type: 'value_error.missing' },
      ]);
      expect(json(await execute({ action: 'list' })).detail).toEqual([{ loc: ['body', 'entity'], msg: 'field required', type: 'value_error.missing' }]);
      expect((await execute({ entity: 'users', action: 'list', params: 'limit=3' })).statusCode).toBe(422);
      const upstream = await execute({ entity: 'channels', action: 'get', params: { channel: 'C0NOPE' } });
      expect([upstream.statusCode, json(upstream)]).toEqual([
        404,
        { detail: 'Upstream rejected the request: channel_not_found', error_code: 'channel_not_found' },
      ]);
      const missing = await execute({ entity: 'users', action: 'list' }, scoped, '00000000-0000-4000-8000-000000000000');
      expect([missing.statusCode, json(missing).error_code]).toEqual([404, 'connector_not_found']);
      const malformed = await fx.http.post(`api/v1/connectors/sources/${connector.id}/execute`, {
        headers: { ...bearer(scoped), 'content-type': 'application/json' },
        body: '{"entity": "users", ',
      });
      expect([malformed.statusCode, json(malformed)]).toEqual([400, { detail: 'Malformed JSON body' }]);
      const huge = await execute({ entity: 'messages', action: 'create', params: { channel: 'C1', text: 'x'.repeat(100_000) } });
      expect(huge.statusCode).toBe(413);
      expect((await execute({ entity: 'users', action: 'list' }, operator)).statusCode).toBe(401);
      expect((await execute({ entity: 'users', action: 'list' }, 'garbage')).statusCode).toBe(401);
      fx.chatSandbox.addFault({ method: 'users.list', status: 429, retryAfter: 120 });
      const limited = await execute({ entity: 'users', action: 'list' });
      expect([limited.statusCode, limited.headers['retry-after']]).toEqual([429, '120']);
    });

    it("refuses another workspace's connector with 403", async () => {
      const mine = await fx.scopedToken('ws-a');
      const theirs = await fx.scopedToken('ws-b');
      const connector = await createChatConnector(mine);
      const response = await post(`api/v1/connectors/sources/${connector.id}/execute`, theirs, { entity: 'users', action: 'list' });
      expect([response.statusCode, json(response)]).toEqual([403, FORBIDDEN]);
      expect((await get(`api/v1/integrations/connectors/${connector.id}`, theirs)).statusCode).toBe(403);
      expect((await fx.http.delete(`api/v1/integrations/connectors/${connector.id}`, { headers: bearer(theirs) })).statusCode).toBe(403);
      expect(json(await get('api/v1/integrations/connectors', theirs)).data).toEqual([]);
    });

    it("refuses another organization's connector with 403 too; an unknown id stays 404", async () => {
      const scoped = await fx.scopedToken('org-a');
      const connector = await createChatConnector(scoped);
      const other = await fx.server.hosted.applications.create('other-org');
      const otherOperator = json(await post('api/v1/account/applications/token', null, { client_id: other.client_id, client_secret: other.client_secret }))
        .access_token as string;
      // Same workspace name in the other organization: a different workspace all the same.
      const otherScoped = json(await post('api/v1/embedded/scoped-token', otherOperator, { workspace_name: 'org-a' })).token as string;
      for (const token of [otherScoped, otherOperator]) {
        const read = await get(`api/v1/integrations/connectors/${connector.id}`, token);
        expect([read.statusCode, json(read)]).toEqual([403, FORBIDDEN]);
        const removed = await fx.http.delete(`api/v1/integrations/connectors/${connector.id}`, { headers: bearer(token) });
        expect([removed.statusCode, json(removed)]).toEqual([403, FORBIDDEN]);
      }
      const run = await post(`api/v1/connectors/sources/${connector.id}/execute`, otherScoped, { entity: 'users', action: 'list' });
      expect([run.statusCode, json(run)]).toEqual([403, FORBIDDEN]);
      expect(json(await get('api/v1/integrations/connectors', otherScoped)).data).toEqual([]);
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '%E0%A4%A']) {
        const unknown = await get(`api/v1/integrations/connectors/${id}`, otherScoped);
        expect([unknown.statusCode, json(unknown).error_code], id).toEqual([404, 'connector_not_found']);
      }
      // Still there for its own workspace.
      expect((await get(`api/v1/integrations/connectors/${connector.id}`, scoped)).statusCode).toBe(200);
    });

    it('streams downloads: bytes, 206 with Content-Range, a name, and a 404 JSON error for a missing file', async () => {
      const scoped = await fx.scopedToken('files');
      const created = json(
        await post('v1/integrations/connectors', scoped, { external_user_id: 'u', connector_type: 'file-storage', credentials: { access_token: DRIVE_TOKEN } }),
      );
      const path = `api/v1/connectors/sources/${created.id}/execute`;
      const fileId = fx.driveSandbox.largeFileId!;
      const whole = await fx.http.post(path, {
        headers: bearer(scoped),
        json: { entity: 'files', action: 'download', params: { fileId, alt: 'media' } },
        responseType: 'buffer',
      });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-length']).toBe(String(2 * 1024 * 1024 + 3));
      expect(whole.headers['content-disposition']).toBe(`attachment; filename="large.bin"; filename*=UTF-8''large.bin`);
      expect(whole.body.equals(fx.driveSandbox.contentOf(fileId))).toBe(true);
      const part = await fx.http.post(path, {
        headers: bearer(scoped),
        json: { entity: 'files', action: 'download', params: { fileId, alt: 'media', range_header: 'bytes=10-19' } },
        responseType: 'buffer',
      });
      expect([part.statusCode, part.headers['content-range']]).toEqual([206, `bytes 10-19/${2 * 1024 * 1024 + 3}`]);
      expect(part.body.equals(fx.driveSandbox.contentOf(fileId, 10, 19))).toBe(true);
      // Upstream cut mid-transfer: the client sees a broken transfer, never a short file that looks whole.
      fx.driveSandbox.addFault({ path: `/drive/v3/files/${fileId}`, status: 200, truncateAfterBytes: 50_000 });
      await expect(
        fx.http.post(path, {
          headers: bearer(scoped),
          json: { entity: 'files', action: 'download', params: { fileId, alt: 'media' } },
          responseType: 'buffer',
        }),
      ).rejects.toThrow();
      const missing = await post(path, scoped, { entity: 'files', action: 'download', params: { fileId: 'no-such-file', alt: 'media' } });
      expect([missing.statusCode, missing.headers['content-type'], json(missing).error_code]).toEqual([404, 'application/json; charset=utf-8', 'notFound']);
    });
  });

  it('serves /openapi.json generated from the schemas of schemas/server', async () => {
    const doc = json(await get('openapi.json', null));
    expect(doc.openapi).toMatch(/^3\./);
    const component = (file: { $schema: string; title: string }) => {
      const { $schema: _ignored, ...schema } = file;
      return [{ $ref: `#/components/schemas/${file.title}` }, schema];
    };
    const create = doc.paths['/v1/integrations/connectors'].post;
    const [createRef, createSchema] = component(connectorCreateRequest);
    expect([create.requestBody.content['application/json'].schema, doc.components.schemas.ConnectorCreateRequest]).toEqual([createRef, createSchema]);
    const [recordRef, recordSchema] = component(connectorRecord);
    expect([create.responses['201'].content['application/json'].schema, doc.components.schemas.ConnectorRecord]).toEqual([recordRef, recordSchema]);
    // A schema that refers to another file refers to that file's component.
    expect(doc.components.schemas.ConnectorList.properties.data.items).toEqual(recordRef);
    expect(create.responses['409'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ConnectorExistsResponse' });
    expect(create.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
    expect(create.responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ValidationErrorResponse' });
    expect(Object.keys(doc.paths['/api/v1/connectors/sources/{connector_id}/execute'].post.responses['200'].content)).toEqual(['application/json', '*/*']);
    expect(doc.paths['/api/v1/integrations/connectors/{connector_id}'].delete.responses['204'].content).toBeUndefined();
    expect(doc.paths['/api/v1/integrations/connectors'].get.parameters).toEqual([
      { name: 'external_user_id', in: 'query', required: false, description: expect.any(String), schema: { type: 'string', maxLength: 255 } },
      { name: 'connector_type', in: 'query', required: false, description: expect.any(String), schema: { type: 'string', maxLength: 100 } },
    ]);
    // Every answer of every operation has a body schema, but a 204's, a redirect's and the official API's bodiless 200 of an OAuth app's PUT.
    const bodiless = (method: string, path: string, status: string) =>
      status === '204' || status.startsWith('3') || (method === 'put' && path.endsWith('/oauthCredentials') && status === '200');
    for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, { content?: object }> }>>))
      for (const [method, { responses }] of Object.entries(operations))
        for (const [status, response] of Object.entries(responses))
          expect(response.content !== undefined, `${method} ${path} ${status}`).toBe(!bodiless(method, path, status));
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/account/applications/token',
        '/api/v1/embedded/scoped-token/info',
        '/api/v1/connectors/sources/{connector_id}/execute',
        '/.well-known/jwks.json',
      ]),
    );
    const tokenResponses = doc.paths['/api/v1/embedded/scoped-token'].post.responses;
    expect(Object.keys(tokenResponses)).toEqual(expect.arrayContaining(['415', '422']));
    expect(Object.keys(doc.paths['/api/v1/integrations/connectors/{connector_id}'].get.responses)).toEqual(expect.arrayContaining(['403', '404', '422']));
    // The region ids are in the document, as a constraint a client can check, in any letter case.
    for (const path of ['/api/v1/embedded/scoped-token', '/api/v1/embedded/widget-token']) {
      const { $ref } = doc.paths[path].post.requestBody.content['application/json'].schema;
      const region = doc.components.schemas[$ref.replace('#/components/schemas/', '')].properties.region_id;
      const pattern = new RegExp(region.pattern);
      for (const id of Object.values(REGIONS))
        expect([pattern.test(id), pattern.test(id.toUpperCase()), region.description.includes(id)], path).toEqual([true, true, true]);
      expect(pattern.test('00000000-0000-4000-8000-000000000000')).toBe(false);
    }
  });

  it('answers /healthz', async () => {
    expect(json(await get('healthz', null))).toEqual({ status: 'ok' });
  });

  it('never writes a secret to its logs or its responses', async () => {
    const secrets = [fx.clientSecret, CHAT_TOKEN, DRIVE_TOKEN, DATA_KEYS.split(':')[1]!];
    const everything = fx.logs.join('\n');
    expect(fx.logs.length).toBeGreaterThan(20);
    for (const secret of secrets) expect(everything).not.toContain(secret);
    const jwks = (await get('.well-known/jwks.json', null)).body;
    expect(jwks).not.toMatch(/"d"/);
  });

  it.runIf(backend === 'postgres')('two instances share one PostgreSQL: a token from one works on the other', async () => {
    const other = await fx.startAnotherServer();
    const scoped = await fx.scopedToken('shared');
    const connector = await createChatConnector(scoped);
    const response = await fx.http.post(`${other.url}/api/v1/connectors/sources/${connector.id}/execute`, {
      prefixUrl: '',
      headers: bearer(scoped),
      json: { entity: 'users', action: 'list', params: { limit: 1 } },
    });
    expect(response.statusCode).toBe(200);
    const otherOperator = await fx.http
      .post(`${other.url}/api/v1/account/applications/token`, { prefixUrl: '', json: { client_id: fx.clientId, client_secret: fx.clientSecret } })
      .json<{ access_token: string }>();
    expect((await post('api/v1/embedded/scoped-token', otherOperator.access_token, { workspace_name: 'shared' })).statusCode).toBe(200);
    // A key rotated on one instance: the other verifies the new tokens.
    await other.hosted.tokens.rotateSigningKey();
    const fresh = await fx.http
      .post(`${other.url}/api/v1/embedded/scoped-token`, { prefixUrl: '', headers: bearer(otherOperator.access_token), json: { workspace_name: 'shared' } })
      .json<{ token: string }>();
    expect((await get('api/v1/embedded/scoped-token/info', fresh.token)).statusCode).toBe(200);
  });

  it('replicates a chat connector into the context store, refreshes it on demand and searches it', async () => {
    const scoped = await fx.scopedToken('search-workspace');
    const connector = await createChatConnector(scoped, 'search-user');
    let state = json(await get(`api/v1/connectors/sources/${connector.id}/replication`, scoped));
    for (let i = 0; i < 200 && state.status !== 'ready' && state.status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = json(await get(`api/v1/connectors/sources/${connector.id}/replication`, scoped));
    }
    expect(state.status).toBe('ready');
    const refresh = await post(`api/v1/connectors/sources/${connector.id}/replication`, scoped);
    expect(refresh.statusCode).toBe(202);
    const person = fx.chatSandbox.data.users.find((user) => !user.is_bot && /\w/.test(user.real_name ?? ''))!;
    const found = await post(`api/v1/connectors/sources/${connector.id}/execute`, scoped, {
      entity: 'users',
      action: 'search',
      params: { query: { filter: { fuzzy: { real_name: person.real_name } } }, limit: 3, fields: ['id', 'real_name'] },
    });
    expect(found.statusCode).toBe(200);
    expect(json(found).result.hits[0].data.real_name).toBe(person.real_name);
  });

  // Last: it reads every answer the tests above got.
  it('answered as /openapi.json declares: every status declared, every body on its schema, every operation answered a 2xx', async () => {
    const conformance = new HostedConformance(json(await get('openapi.json', null)));
    const problems = [...new Set(answers.map((answer) => conformance.problemWith(answer)).filter((problem) => problem !== undefined))];
    expect(problems).toEqual([]);
    const succeeded = new Set(answers.filter((answer) => answer.status < 300).map((answer) => conformance.operationOf(answer)));
    // The public cloud API's operations have a suite of their own (public-api.test.ts), which checks them the same way; OAuth's too (oauth-*.test.ts), and notifications' (notifications*.test.ts).
    const oauth = new Set([...conformance.operationKeys({ tagged: 'OAuth' }), ...conformance.operationKeys({ tagged: 'notifications' })]);
    expect(conformance.operationKeys({ untagged: 'public API' }).filter((key) => !succeeded.has(key) && !oauth.has(key))).toEqual([]);
  });
});

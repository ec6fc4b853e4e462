import { describe, expect, it } from 'vitest';
import type { ActionDefinition, ConnectorDefinition } from '../sdk/index.ts';
import { checkDefinition, RESERVED_ENTITY_NAMES } from './definition-checks.ts';

const list: ActionDefinition = {
  entity: 'items',
  action: 'list',
  description: 'List items.',
  params: { type: 'object', properties: { cursor: { type: 'string' } } },
  record: { type: 'object', properties: { id: { type: 'string' } } },
  meta: { type: 'object', properties: { next: { type: ['string', 'null'] } } },
  request: { method: 'GET', path: '/items' },
  response: { records: 'items', meta: { next: 'next_cursor' } },
  paginated: true,
};

const get: ActionDefinition = {
  entity: 'items',
  action: 'get',
  description: 'Get an item.',
  params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  record: { type: 'object' },
  request: { method: 'GET', path: '/items/{id}' },
  response: { records: '' },
};

const download: ActionDefinition = {
  ...get,
  entity: 'item_content',
  action: 'download',
  request: { method: 'GET', path: '/items/{id}/content' },
  hooks: { fileName: async () => 'name.txt' },
};

const connector: ConnectorDefinition = {
  type: 'items',
  displayName: 'Items',
  auth: { token: { header: 'Authorization', scheme: 'Bearer' } },
  defaultBaseUrl: 'https://items.example.test',
  transport: { timeoutMs: 1000, maxRetries: 0, maxRetryAfterSeconds: 1, errors: { codePath: 'error', statusByCode: {}, rateLimitCodes: ['slow_down'] } },
  pagination: { cursorParam: 'cursor', nextCursorMeta: 'next' },
  actions: [list, get, download],
  check: { entity: 'items', action: 'get', params: { id: 'x' }, rejectedCodes: ['bad_token'] },
};

/** The problems of the connector with `actions` in place of its own. */
const problemsWith = (...actions: unknown[]) => checkDefinition({ ...connector, actions });

describe('checkDefinition', () => {
  it('finds nothing wrong with a well-formed connector, hooks included', () => {
    expect(checkDefinition(connector)).toEqual([]);
    const run: ActionDefinition = { ...get, action: 'update', request: undefined, hooks: { run: async () => ({}), prepareParams: (params) => params } };
    expect(problemsWith(list, get, run)).toEqual([]);
  });

  it('refuses anything but an object', () => {
    for (const candidate of [undefined, null, 'chat', 42]) {
      expect(checkDefinition(candidate)).toEqual(['the module must export a connector definition (default export or `connector`)']);
    }
  });

  it('checks a declared OAuth flow: the header rule it needs, its URLs, its provider and its sign of expiry', () => {
    const flow = {
      providerName: 'Acme',
      authorizeUrl: 'https://acme.test/oauth/authorize',
      tokenUrl: 'https://acme.test/oauth/token',
      scopes: ['read'],
      expiredToken: { status: 401 },
    };
    expect(checkDefinition({ ...connector, auth: { oauth: { header: 'Authorization', scheme: 'Bearer' }, oauth2: flow } })).toEqual([]);
    expect(
      checkDefinition({
        ...connector,
        auth: { token: { header: 'Authorization' }, oauth2: { ...flow, providerName: '', tokenUrl: 'ftp://x', expiredToken: {} } },
      }),
    ).toEqual([
      '`auth.oauth2` needs `auth.oauth`, the header rule its access tokens travel by',
      'auth.oauth2.providerName must name the provider',
      'auth.oauth2.tokenUrl must be an http(s) URL',
      'auth.oauth2.expiredToken must name the `codes` or the `status` by which the API says an access token expired',
    ]);
  });

  it('lists every top-level problem at once', () => {
    const broken = {
      ...connector,
      type: 'Items!',
      displayName: '',
      defaultBaseUrl: 'ftp://x',
      auth: { basic: { header: '' } },
      transport: { timeoutMs: -1, maxRetries: 0, maxRetryAfterSeconds: 1, errors: { codePath: 'error', statusByCode: {}, failureInBody: true } },
    };
    expect(checkDefinition(broken)).toEqual([
      '`type` must be a lowercase identifier such as "chat"',
      '`displayName` must be a non-empty string',
      '`defaultBaseUrl` must be an http(s) URL',
      'unknown auth kind "basic"; allowed: oauth, token, oauth2',
      'auth.basic needs a `header`',
      'transport.timeoutMs must be a non-negative number',
      'transport.errors.failureInBody must be a function: body => whether it reports a failure',
    ]);
  });

  it('names the action of each action problem', () => {
    expect(problemsWith({ ...get, entity: RESERVED_ENTITY_NAMES[0], action: 'explode' })).toEqual([
      'actions[0] (execute.explode): entity name "execute" is reserved',
      'actions[0] (execute.explode): `action` must be one of list, get, create, update, search, download',
      '`check` names items.get, which is not a declared action',
    ]);
    expect(problemsWith(list, get, get)).toEqual(['actions[2] (items.get): declared twice']);
    expect(problemsWith(list, 'get')).toContain('actions[1] must be an object');
  });

  it('names every field the SDK does not know, and where a moved one lives now', () => {
    const outdated = {
      ...connector,
      versoin: '1.0.0',
      transport: { ...connector.transport, errors: { ...connector.transport.errors, okField: 'ok' } },
      actions: [{ ...get, fileName: { path: '/items/{id}', field: 'name' }, request: { ...get.request!, fieldSelector: { param: 'fields' } } }],
    };
    const problems = checkDefinition(outdated);
    expect(problems).toContainEqual(expect.stringMatching(/^unknown field `versoin`; known: type, displayName, version/));
    expect(problems).toContain('unknown field `transport.errors.okField`: it is now a `transport.errors.failureInBody(body)` function');
    expect(problems).toContain('actions[0] (items.get): unknown field `fileName`: it is now a `hooks.fileName` function');
    expect(problems).toContain('actions[0] (items.get): unknown field `request.fieldSelector`: it is now a `hooks.prepareParams` function');
    expect(checkDefinition({ ...connector, version: '' })).toContain('`version` must be a non-empty string when given');
    expect(checkDefinition({ ...connector, version: '2.1.0' })).toEqual([]);
  });

  it('refuses a request path placeholder that no params property fills', () => {
    const typo = { ...get, request: { method: 'GET', path: '/items/{itemId}/parts/{id}' } };
    expect(problemsWith(list, typo)).toEqual(['actions[1] (items.get): `request.path` placeholder {itemId} matches no property of the params schema']);
    // An inherited name is no property either.
    expect(problemsWith(list, { ...get, request: { method: 'GET', path: '/items/{constructor}' } })).toHaveLength(1);
  });

  it('checks the hooks: functions under known names, each where it can run', () => {
    expect(problemsWith(list, { ...get, hooks: 'prepare' })).toEqual([
      'actions[1] (items.get): `hooks` must be an object of functions (prepareParams, transformResponse, fileName, run)',
    ]);
    expect(problemsWith(list, { ...get, hooks: { prepareParams: 'widen', transfromResponse: () => ({}), fileName: async () => null } })).toEqual([
      'actions[1] (items.get): unknown hook "transfromResponse"; known: prepareParams, transformResponse, fileName, run',
      'actions[1] (items.get): `hooks.prepareParams` must be a function',
      'actions[1] (items.get): `hooks.fileName` is for download actions only',
    ]);
    expect(problemsWith(list, get, { ...download, hooks: { run: async () => ({}) } })).toEqual([
      "actions[2] (item_content.download): `hooks.run` cannot serve a download: a download streams its `request`'s body",
    ]);
    // A hook left undefined is no hook.
    expect(problemsWith(list, { ...get, hooks: { prepareParams: undefined } })).toEqual([]);
  });

  it('wants one way to the upstream: a request, or a run hook in its place', () => {
    const update = { ...get, action: 'update' };
    expect(problemsWith(list, get, { ...update, request: undefined })).toEqual([
      'actions[2] (items.update): `request` needs method GET or POST and a path starting with "/"',
    ]);
    expect(problemsWith(list, get, { ...update, hooks: { run: async () => ({}) } })).toEqual([
      'actions[2] (items.update): `hooks.run` takes the place of `request`: declare one of them, not both',
    ]);
    // A hosted-only action calls no upstream; a search says what the store keeps, and needs the connector's replicate.
    const searchIndex = { document: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } }, id: 'id', textFields: ['name'] };
    expect(problemsWith(list, get, { ...get, action: 'search', request: undefined, hostedOnly: true, searchIndex })).toEqual([
      "actions[2] (items.search): a search action needs the connector's `replicate` function, which fills the context store",
    ]);
    expect(problemsWith(list, get, { ...get, action: 'search', request: undefined, hostedOnly: true })).toEqual([
      'actions[2] (items.search): a search action declares `searchIndex` (use defineSearchAction(entity, index))',
    ]);
    expect(
      problemsWith(list, get, { ...get, action: 'search', request: undefined, hostedOnly: true, searchIndex: { ...searchIndex, textFields: ['nope'] } }),
    ).toContain('actions[2] (items.search): `searchIndex`: items: text field "nope" must be a string field of the document outside arrays');
  });

  it('refuses a paginated list without connector pagination, a cursor meta or a cursor param', () => {
    expect(problemsWith({ ...list, response: { records: 'items' } }, get)).toEqual([
      'actions[0] (items.list): a paginated action needs connector `pagination` and a `response.meta` entry for its next cursor',
    ]);
    expect(checkDefinition({ ...connector, pagination: undefined })).toEqual([
      'actions[0] (items.list): a paginated action needs connector `pagination` and a `response.meta` entry for its next cursor',
    ]);
    expect(problemsWith({ ...list, params: { type: 'object', properties: {} } }, get)).toEqual([
      'actions[0] (items.list): a paginated action\'s params must declare the cursor param "cursor", or page 2 could not be asked for',
    ]);
  });

  it('wants a credential check that reads, with codes that are no rate limit', () => {
    const checking = (check: unknown) => checkDefinition({ ...connector, check });
    expect(checking({ entity: 'item_content', action: 'download', rejectedCodes: ['bad_token'] })).toEqual([
      '`check` must name a read action that calls the upstream (no write, download or hosted-only action); item_content.download is not one',
    ]);
    expect(checking({ entity: 'items', action: 'get', rejectedCodes: ['bad_token', 'slow_down'] })).toEqual([
      '`check.rejectedCodes` lists slow_down, declared in transport.errors as a rate limit or a passing failure',
    ]);
    expect(checking({ entity: 'items', action: 'get', rejectedCodes: [] })).toEqual([
      '`check.rejectedCodes` must list the upstream codes that mean a refused credential',
    ]);
  });
});

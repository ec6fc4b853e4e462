import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RestUpstream } from '../testing/index.ts';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { DRIVE_TOKEN } from './helpers/drive-fixture.ts';
import { BACKENDS, type HostedFixture } from './helpers/hosted-fixture.ts';
import type { OpenApiDocument } from './helpers/hosted-openapi.ts';
import { declarativeManifest, publishDeclarative } from './helpers/oauth-consent.ts';
import {
  type CallAnswer,
  officialSlackConfiguration,
  otherOrganizationToken,
  type publicApiCalls,
  rawPublicCalls,
  settledJob,
  startPublicApiSuite,
} from './helpers/public-api-calls.ts';
import { PublicApiSpec } from './helpers/public-api-spec.ts';

/**
 * The whole of Airbyte's public API description (api_sdk.yaml), walked: every operation it has gets
 * one request that succeeds, its answer checked against the operation (status and body), and the
 * server must serve every operation the description has.
 */

const spec = PublicApiSpec.load();

/** What the walk has made so far, for the next steps. */
interface Walk {
  organizationId: string;
  workspaceId: string;
  /** The custom definitions made, by the path's noun. */
  definitionIds: Record<'sources' | 'destinations', string>;
  declarativeId: string;
  sourceId: string;
  destinationId: string;
  tagId: string;
  connectionId: string;
  jobId: number;
  /** A user of the organization (an application) and a permission given to it. */
  userId: string;
  permissionId: string;
}

/** The official shape of the OAuth app configuration is a oneOf of forty sources' that each take this one (see oauth-apps.test.ts). */
const OAUTH_APP = { actorType: 'source', name: 'slack', configuration: { credentials: { client_id: 'walk-client', client_secret: 'walk-secret' } } };
const SLACK = officialSlackConfiguration();
const DUCKDB = { destinationType: 'duckdb', destination_path: '/local/walk.duckdb', schema: 'main' };

describe.each(BACKENDS)('every operation of the public API description on %s', (backend) => {
  let fx: HostedFixture;
  let call: ReturnType<typeof publicApiCalls>;
  const w = { definitionIds: {} } as Walk;
  /** The operations the walk called, each with the status it got. */
  const walked = new Map<string, number>();

  beforeAll(async () => {
    const operations = ['post /sources', 'get /sources', 'get /sources/{sourceId}', 'post /destinations', 'get /destinations/{destinationId}'];
    ({ fx, call } = await startPublicApiSuite(backend, spec, { operations }));
  });
  afterAll(async () => {
    await fx?.close();
  });

  const workspace = () => `/workspaces/${w.workspaceId}`;
  const declaratives = () => `${workspace()}/definitions/declarative_sources`;

  /** The source (or destination) definitions' steps but the delete: list, create a custom one, get and update it. */
  function definitionSteps(nouns: 'sources' | 'destinations'): Array<[string, () => Promise<CallAnswer>]> {
    const specPath = `/workspaces/{workspaceId}/definitions/${nouns}`;
    const path = () => `${workspace()}/definitions/${nouns}`;
    const body = { name: 'a container', dockerRepository: `example/${nouns}-thing`, dockerImageTag: '1.0.0', documentationUrl: 'https://example.com/docs' };
    return [
      [`get ${specPath}`, () => call('get', specPath, path())],
      [
        `post ${specPath}`,
        async () => {
          const answer = await call('post', specPath, path(), { body });
          w.definitionIds[nouns] = answer.body.id;
          return answer;
        },
      ],
      [`get ${specPath}/{definitionId}`, () => call('get', `${specPath}/{definitionId}`, `${path()}/${w.definitionIds[nouns]}`)],
      [
        `put ${specPath}/{definitionId}`,
        () =>
          call('put', `${specPath}/{definitionId}`, `${path()}/${w.definitionIds[nouns]}`, { body: { name: 'a container, renamed', dockerImageTag: '1.1.0' } }),
      ],
    ];
  }
  function definitionDeleteStep(nouns: 'sources' | 'destinations'): [string, () => Promise<CallAnswer>] {
    const specPath = `/workspaces/{workspaceId}/definitions/${nouns}/{definitionId}`;
    return [`delete ${specPath}`, () => call('delete', specPath, `${workspace()}/definitions/${nouns}/${w.definitionIds[nouns]}`)];
  }

  /** One step per operation, in an order where each finds what it needs (deletes last). */
  const STEPS: Array<[operation: string, run: () => Promise<CallAnswer>]> = [
    [
      'get /health',
      async () => {
        const response = await fx.http.get('v1/health');
        // Airbyte answers the text; the description declares no body, and the SDK looks at the status only.
        expect([response.headers['content-type'], response.body]).toEqual(['text/plain; charset=utf-8', 'Successful operation']);
        expect(spec.responseProblems('get', '/health', response.statusCode, undefined)).toEqual([]);
        return { status: response.statusCode, body: undefined };
      },
    ],
    [
      'get /organizations',
      async () => {
        const answer = await call('get', '/organizations', '/organizations');
        w.organizationId = answer.body.data[0].organizationId;
        return answer;
      },
    ],
    [
      'post /workspaces',
      async () => {
        const answer = await call('post', '/workspaces', '/workspaces', { body: { name: 'the walk' } });
        w.workspaceId = answer.body.workspaceId;
        return answer;
      },
    ],
    ['get /workspaces', () => call('get', '/workspaces', `/workspaces?workspaceIds=${w.workspaceId}&includeDeleted=false&limit=5&offset=0`)],
    ['get /workspaces/{workspaceId}', () => call('get', '/workspaces/{workspaceId}', workspace())],
    ['patch /workspaces/{workspaceId}', () => call('patch', '/workspaces/{workspaceId}', workspace(), { body: { name: 'the walk, renamed' } })],
    [
      'put /workspaces/{workspaceId}/oauthCredentials',
      () => call('put', '/workspaces/{workspaceId}/oauthCredentials', `${workspace()}/oauthCredentials`, { body: OAUTH_APP, extension: true }),
    ],
    [
      'put /organizations/{organizationId}/oauthCredentials',
      () =>
        call('put', '/organizations/{organizationId}/oauthCredentials', `/organizations/${w.organizationId}/oauthCredentials`, {
          body: OAUTH_APP,
          extension: true,
        }),
    ],
    ...definitionSteps('sources'),
    ...definitionSteps('destinations'),
    [
      'post /workspaces/{workspaceId}/definitions/declarative_sources',
      async () => {
        w.declarativeId = await publishDeclarative(call, w.workspaceId, 'walk members', declarativeManifest(fx, 'walk-members'));
        return { status: 200, body: undefined };
      },
    ],
    [
      'get /workspaces/{workspaceId}/definitions/declarative_sources',
      () => call('get', '/workspaces/{workspaceId}/definitions/declarative_sources', declaratives()),
    ],
    [
      'get /workspaces/{workspaceId}/definitions/declarative_sources/{definitionId}',
      () => call('get', '/workspaces/{workspaceId}/definitions/declarative_sources/{definitionId}', `${declaratives()}/${w.declarativeId}`),
    ],
    [
      'put /workspaces/{workspaceId}/definitions/declarative_sources/{definitionId}',
      () =>
        call('put', '/workspaces/{workspaceId}/definitions/declarative_sources/{definitionId}', `${declaratives()}/${w.declarativeId}`, {
          body: { manifest: declarativeManifest(fx, 'walk-members') },
        }),
    ],
    [
      'post /sources',
      async () => {
        const answer = await call('post', '/sources', '/sources', { body: { name: 'walk slack', workspaceId: w.workspaceId, configuration: SLACK } });
        w.sourceId = answer.body.sourceId;
        return answer;
      },
    ],
    ['get /sources', () => call('get', '/sources', `/sources?workspaceIds=${w.workspaceId}&includeDeleted=false`)],
    ['get /sources/{sourceId}', () => call('get', '/sources/{sourceId}', `/sources/${w.sourceId}`)],
    ['patch /sources/{sourceId}', () => call('patch', '/sources/{sourceId}', `/sources/${w.sourceId}`, { body: { name: 'walk slack, patched' } })],
    [
      'put /sources/{sourceId}',
      () =>
        call('put', '/sources/{sourceId}', `/sources/${w.sourceId}`, { body: { name: 'walk slack, put', configuration: { ...SLACK, lookback_window: 1 } } }),
    ],
    [
      'post /sources/initiateOAuth',
      () =>
        call('post', '/sources/initiateOAuth', '/sources/initiateOAuth', {
          body: { redirectUrl: 'https://app.example/connected', workspaceId: w.workspaceId, sourceType: 'slack' },
        }),
    ],
    [
      'post /destinations',
      async () => {
        const answer = await call('post', '/destinations', '/destinations', { body: { name: 'walk duck', workspaceId: w.workspaceId, configuration: DUCKDB } });
        w.destinationId = answer.body.destinationId;
        return answer;
      },
    ],
    ['get /destinations', () => call('get', '/destinations', `/destinations?workspaceIds=${w.workspaceId}`)],
    ['get /destinations/{destinationId}', () => call('get', '/destinations/{destinationId}', `/destinations/${w.destinationId}`)],
    [
      'patch /destinations/{destinationId}',
      () => call('patch', '/destinations/{destinationId}', `/destinations/${w.destinationId}`, { body: { name: 'walk duck, patched' } }),
    ],
    [
      'put /destinations/{destinationId}',
      () => call('put', '/destinations/{destinationId}', `/destinations/${w.destinationId}`, { body: { name: 'walk duck, put', configuration: DUCKDB } }),
    ],
    ['get /streams', () => call('get', '/streams', `/streams?sourceId=${w.sourceId}&destinationId=${w.destinationId}&ignoreCache=false`)],
    [
      'post /tags',
      async () => {
        const answer = await call('post', '/tags', '/tags', { body: { name: 'walkers', color: 'FF5733', workspaceId: w.workspaceId } });
        w.tagId = answer.body.tagId;
        return answer;
      },
    ],
    ['get /tags', () => call('get', '/tags', `/tags?workspaceIds=${w.workspaceId}`)],
    ['get /tags/{tagId}', () => call('get', '/tags/{tagId}', `/tags/${w.tagId}`)],
    ['patch /tags/{tagId}', () => call('patch', '/tags/{tagId}', `/tags/${w.tagId}`, { body: { name: 'walkers, too', color: '00aa00' } })],
    [
      'post /connections',
      async () => {
        const tag = (await call('get', '/tags/{tagId}', `/tags/${w.tagId}`)).body;
        const configurations = {
          streams: [{ name: 'users', syncMode: 'full_refresh_overwrite', selectedFields: [{ fieldPath: ['id'] }, { fieldPath: ['name'] }] }],
        };
        const body = { sourceId: w.sourceId, destinationId: w.destinationId, name: 'walk', configurations, tags: [tag] };
        const answer = await call('post', '/connections', '/connections', { body });
        w.connectionId = answer.body.connectionId;
        return answer;
      },
    ],
    ['get /connections', () => call('get', '/connections', `/connections?workspaceIds=${w.workspaceId}&tagIds=${w.tagId}&includeDeleted=false`)],
    ['get /connections/{connectionId}', () => call('get', '/connections/{connectionId}', `/connections/${w.connectionId}`)],
    [
      'patch /connections/{connectionId}',
      () => call('patch', '/connections/{connectionId}', `/connections/${w.connectionId}`, { body: { name: 'walk, patched', status: 'inactive' } }),
    ],
    [
      'post /jobs',
      async () => {
        const answer = await call('post', '/jobs', '/jobs', { body: { connectionId: w.connectionId, jobType: 'sync' } });
        w.jobId = answer.body.jobId;
        return answer;
      },
    ],
    ['get /jobs', () => call('get', '/jobs', `/jobs?connectionId=${w.connectionId}&limit=5&offset=0`)],
    ['get /jobs/{jobId}', () => call('get', '/jobs/{jobId}', `/jobs/${w.jobId}`)],
    ['delete /jobs/{jobId}', () => call('delete', '/jobs/{jobId}', `/jobs/${w.jobId}`)],
    ['delete /connections/{connectionId}', () => call('delete', '/connections/{connectionId}', `/connections/${w.connectionId}`)],
    ['delete /tags/{tagId}', () => call('delete', '/tags/{tagId}', `/tags/${w.tagId}`)],
    ['delete /destinations/{destinationId}', () => call('delete', '/destinations/{destinationId}', `/destinations/${w.destinationId}`)],
    ['delete /sources/{sourceId}', () => call('delete', '/sources/{sourceId}', `/sources/${w.sourceId}`)],
    definitionDeleteStep('sources'),
    definitionDeleteStep('destinations'),
    [
      'delete /workspaces/{workspaceId}/definitions/declarative_sources/{definitionId}',
      () => call('delete', '/workspaces/{workspaceId}/definitions/declarative_sources/{definitionId}', `${declaratives()}/${w.declarativeId}`),
    ],
    [
      'delete /workspaces/{workspaceId}/oauthCredentials/{actorType}/{name}',
      () => call('delete', '/workspaces/{workspaceId}/oauthCredentials/{actorType}/{name}', `${workspace()}/oauthCredentials/source/slack`),
    ],
    [
      'delete /organizations/{organizationId}/oauthCredentials/{actorType}/{name}',
      () =>
        call(
          'delete',
          '/organizations/{organizationId}/oauthCredentials/{actorType}/{name}',
          `/organizations/${w.organizationId}/oauthCredentials/source/slack`,
        ),
    ],
    [
      'get /users',
      async () => {
        const answer = await call('get', '/users', `/users?organizationId=${w.organizationId}`);
        w.userId = answer.body.data[0].id;
        return answer;
      },
    ],
    [
      'post /permissions',
      async () => {
        const body = { permissionType: 'workspace_reader', userId: w.userId, workspaceId: w.workspaceId };
        const answer = await call('post', '/permissions', '/permissions', { body });
        w.permissionId = answer.body.permissionId;
        return answer;
      },
    ],
    ['get /permissions', () => call('get', '/permissions', `/permissions?userId=${w.userId}&organizationId=${w.organizationId}`)],
    ['get /permissions/{permissionId}', () => call('get', '/permissions/{permissionId}', `/permissions/${w.permissionId}`)],
    [
      'patch /permissions/{permissionId}',
      () => call('patch', '/permissions/{permissionId}', `/permissions/${w.permissionId}`, { body: { permissionType: 'workspace_editor' } }),
    ],
    ['delete /permissions/{permissionId}', () => call('delete', '/permissions/{permissionId}', `/permissions/${w.permissionId}`)],
    ['delete /workspaces/{workspaceId}', () => call('delete', '/workspaces/{workspaceId}', workspace())],
  ];

  it('walks every operation with a request that succeeds, each answer as the description declares it', async () => {
    for (const [operation, run] of STEPS) {
      const answer = await run();
      expect(answer.status, `${operation}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      walked.set(operation, answer.status);
    }
    // Without the description on this machine, the walk still runs; only what it compares with the description skips.
    if (!spec.available) return;
    const operations = spec.sdkOperations();
    expect(operations.filter((operation) => !walked.has(operation))).toEqual([]);
    // A step for an operation the description does not have would be a typo.
    expect([...walked.keys()].filter((operation) => !operations.includes(operation))).toEqual([]);
  });

  it('serves every operation of the description, under /v1 and /api/public/v1 (its own /openapi.json says so)', async () => {
    const document = JSON.parse((await fx.http.get('openapi.json')).body) as OpenApiDocument;
    /** `method /path/{}`: parameter names differ (the server's are snake_case). */
    const shape = (method: string, path: string) => `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`;
    const served = (root: string) =>
      new Set(
        Object.entries(document.paths)
          .filter(([path]) => path.startsWith(`${root}/`))
          .flatMap(([path, methods]) => Object.keys(methods).map((method) => shape(method, path.slice(root.length)))),
      );
    const shaped = (operation: string) => shape(...(operation.split(' ') as [string, string]));
    for (const root of ['/v1', '/api/public/v1']) {
      const routes = served(root);
      const missing = spec.sdkOperations().filter((operation) => !routes.has(shaped(operation)));
      expect(missing, root).toEqual([]);
    }
  });
});

const TRACKER_MANIFEST = readFileSync(new URL('./fixtures/manifests/source-tracker/manifest.yaml', import.meta.url), 'utf8');
const TRACKER_KEY = 'tracker-key-complete-4e2a';

describe.each(BACKENDS)('streams, deleted resources, jobs and optional fields of the public API on %s', (backend) => {
  let fx: HostedFixture;
  let upstream: RestUpstream;
  let token: string;
  let call: ReturnType<typeof publicApiCalls>;
  let workspaceId: string;
  let destinationId: string;

  const createSource = (name: string, configuration: Record<string, unknown>, extra: Record<string, unknown> = {}, workspace = workspaceId) =>
    call('post', '/sources', '/sources', { body: { name, workspaceId: workspace, configuration, ...extra }, extension: true });
  const streamsOf = (sourceId: string, query = '') => call('get', '/streams', `/streams?sourceId=${sourceId}${query}`);
  const connect = (sourceId: string, body: Record<string, unknown> = {}) =>
    call('post', '/connections', '/connections', { body: { sourceId, destinationId, ...body } });
  const raw = (method: 'GET' | 'POST', path: string, json?: unknown) => rawPublicCalls(fx, () => token)(method, path, json);
  const issue = (answer: { body: { issues?: Array<{ loc: Array<string | number>; type: string }> } }) => [
    answer.body.issues?.[0]?.loc.join('.'),
    answer.body.issues?.[0]?.type,
  ];

  beforeAll(async () => {
    upstream = await RestUpstream.start({ items: 20, projects: 2, tasksPerProject: 2, auth: { kind: 'api_key', header: 'X-Api-Key', key: TRACKER_KEY } });
    const operations = ['post /sources', 'get /sources', 'post /destinations', 'get /destinations', 'post /connections', 'get /connections'];
    ({ fx, token, call } = await startPublicApiSuite(backend, spec, { operations }));
    workspaceId = (await call('post', '/workspaces', '/workspaces', { body: { name: 'complete-ws' } })).body.workspaceId;
    const destination = await call('post', '/destinations', '/destinations', {
      body: { name: 'duck', workspaceId, configuration: { destinationType: 'duckdb', destination_path: '/local/complete.duckdb' } },
    });
    destinationId = destination.body.destinationId;
  });
  afterAll(async () => {
    await fx?.close();
    await upstream?.close();
  });

  it('describes the streams of every kind of source as connections take them, a bare array', async () => {
    const airbyteManifest = await publishDeclarative(call, workspaceId, 'Tracker', parse(TRACKER_MANIFEST));
    const plugboardManifest = await publishDeclarative(call, workspaceId, 'Members', declarativeManifest(fx, 'complete-members'));
    const kinds: Array<[string, Record<string, unknown>, Record<string, unknown>?]> = [
      ['chat', { sourceType: 'chat', credentials: { token: CHAT_TOKEN } }],
      ['slack', SLACK],
      [
        'google-drive',
        {
          sourceType: 'google-drive',
          folder_url: 'https://drive.google.com/drive/folders/x',
          streams: [{ name: 'documents', format: { filetype: 'unstructured' } }],
          credentials: { auth_type: 'Client', client_id: 'c', client_secret: 's', refresh_token: 'r', access_token: DRIVE_TOKEN },
        },
      ],
      ['Airbyte manifest', { base_url: upstream.url, api_key: TRACKER_KEY, start_date: '2024-01-01T00:00:00Z' }, { definitionId: airbyteManifest }],
      ['Plugboard manifest', { credentials: { token: CHAT_TOKEN } }, { definitionId: plugboardManifest }],
    ];
    const found: Record<string, Array<Record<string, any>>> = {};
    for (const [kind, configuration, extra] of kinds) {
      const source = await createSource(kind, configuration, extra);
      expect(source.status, `${kind}: ${JSON.stringify(source.body)}`).toBe(200);
      const streams = await streamsOf(source.body.sourceId, `&destinationId=${destinationId}&ignoreCache=true`);
      expect([streams.status, Array.isArray(streams.body)], kind).toEqual([200, true]);
      expect(streams.body.length, kind).toBeGreaterThan(0);
      found[kind] = streams.body;
      // Each stream as a connection of every stream takes it by default: the same names, cursors and keys.
      const connection = await connect(source.body.sourceId);
      const taken = connection.body.configurations.streams.map((s: Record<string, unknown>) => [s.name, s.cursorField, s.primaryKey]);
      expect(
        streams.body.map((s: Record<string, unknown>) => [s.streamName, s.defaultCursorField, s.sourceDefinedPrimaryKey]),
        kind,
      ).toEqual(taken);
      for (const stream of streams.body)
        expect(stream.syncModes, `${kind} ${stream.streamName}`).toContain(
          connection.body.configurations.streams.find((s: { name: string }) => s.name === stream.streamName).syncMode,
        );
    }
    const messages = found.chat!.find((stream) => stream.streamName === 'channel_messages');
    expect(messages).toMatchObject({
      syncModes: ['full_refresh_overwrite', 'incremental_append', 'incremental_deduped_history'],
      defaultCursorField: ['ts'],
      sourceDefinedCursorField: true,
      sourceDefinedPrimaryKey: [['channel_id'], ['ts']],
    });
    expect(messages!.propertyFields).toEqual(expect.arrayContaining([['ts'], ['channel_id']]));
    expect(found.slack).toEqual(found.chat);
    expect(found['google-drive']!.find((stream) => stream.streamName === 'changes')).toMatchObject({
      syncModes: ['incremental_append', 'incremental_deduped_history'],
      sourceDefinedCursorField: true,
    });
    expect(found['Airbyte manifest']!.map((stream) => stream.streamName)).toEqual(expect.arrayContaining(['items', 'Projects', 'items_updated']));
    expect(found['Airbyte manifest']!.find((stream) => stream.streamName === 'items_updated')).toMatchObject({
      defaultCursorField: ['updated_at'],
      sourceDefinedPrimaryKey: [['id']],
    });
    expect(found['Plugboard manifest']!.map((stream) => stream.streamName)).toEqual(['users']);
  });

  it("answers a missing or malformed sourceId with a 400, and a source or destination not the organization's with a 404", async () => {
    const source = (await createSource('for streams', { sourceType: 'chat', credentials: { token: CHAT_TOKEN } })).body.sourceId as string;
    for (const [query, loc] of [
      ['', 'query.sourceId'],
      ['?sourceId=not-a-uuid', 'query.sourceId'],
      [`?sourceId=${source}&destinationId=nope`, 'query.destinationId'],
      [`?sourceId=${source}&ignoreCache=maybe`, 'query.ignoreCache'],
    ] as const) {
      const answer = await raw('GET', `/streams${query}`);
      expect([answer.status, answer.contentType, answer.body.issues?.[0]?.loc.join('.')], query).toEqual([400, 'application/problem+json', loc]);
    }
    expect((await raw('GET', `/streams?sourceId=${randomUUID()}`)).status).toBe(404);
    expect((await raw('GET', `/streams?sourceId=${source}&destinationId=${randomUUID()}`)).status).toBe(404);
    const otherToken = await otherOrganizationToken(fx);
    expect((await call('get', '/streams', `/streams?sourceId=${source}`, { token: otherToken })).status).toBe(404);
  });

  it('syncs only the selected fields it was given, checked as Airbyte checks them, and its mappers; takes the fields that change nothing here', async () => {
    const source = (await createSource('selected', { sourceType: 'chat', credentials: { token: CHAT_TOKEN } })).body.sourceId as string;
    const fields = (...names: string[]) => names.map((name) => ({ fieldPath: [name] }));
    const chosen = await connect(source, {
      configurations: {
        streams: [
          {
            name: 'users',
            syncMode: 'full_refresh_overwrite',
            selectedFields: fields('id', 'name'),
            namespace: 'ignored',
            destinationObjectName: 'ignored',
            includeFiles: false,
            mappers: [],
          },
          { name: 'channel_messages', syncMode: 'incremental_deduped_history', selectedFields: fields('channel_id', 'ts', 'text') },
        ],
      },
    });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    expect(chosen.body.configurations.streams.map((s: { name: string; selectedFields?: unknown }) => [s.name, s.selectedFields])).toEqual([
      ['users', fields('id', 'name')],
      ['channel_messages', fields('channel_id', 'ts', 'text')],
    ]);
    const got = await call('get', '/connections/{connectionId}', `/connections/${chosen.body.connectionId}`);
    expect(got.body.configurations).toEqual(chosen.body.configurations);
    const stream = (entry: Record<string, unknown>) => raw('POST', '/connections', { sourceId: source, destinationId, configurations: { streams: [entry] } });
    for (const [entry, loc, type] of [
      [{ name: 'users', selectedFields: [] }, 'body.configurations.streams.0.selectedFields', 'value_error.no_field_selected'],
      [
        { name: 'users', selectedFields: [{ fieldPath: ['profile', 'email'] }] },
        'body.configurations.streams.0.selectedFields.0.fieldPath',
        'value_error.nested_field',
      ],
      [{ name: 'users', selectedFields: [{}] }, 'body.configurations.streams.0.selectedFields.0.fieldPath', 'value_error.nested_field'],
      [{ name: 'users', selectedFields: fields('id', 'nope') }, 'body.configurations.streams.0.selectedFields.1.fieldPath', 'value_error.unknown_field'],
      [{ name: 'users', selectedFields: fields('id', 'id') }, 'body.configurations.streams.0.selectedFields.1.fieldPath', 'value_error.duplicate_field'],
      [
        { name: 'channel_messages', syncMode: 'incremental_deduped_history', selectedFields: fields('ts', 'text') },
        'body.configurations.streams.0.selectedFields',
        'value_error.key_field_not_selected',
      ],
      [
        { name: 'channel_messages', syncMode: 'incremental_append', selectedFields: fields('channel_id') },
        'body.configurations.streams.0.selectedFields',
        'value_error.key_field_not_selected',
      ],
      [
        { name: 'users', mappers: [{ type: 'hashing', mapperConfiguration: { targetField: 'nope', method: 'SHA-256', fieldNameSuffix: '_hashed' } }] },
        'body.configurations.streams.0.mappers.0.mapperConfiguration.targetField',
        'value_error.mapper_field_not_found',
      ],
    ] as const) {
      const answer = await stream(entry);
      expect([answer.status, ...issue(answer)], JSON.stringify(entry)).toEqual([400, loc, type]);
    }
    // resourceAllocation is taken on sources and destinations, and changes nothing.
    const allocation = { default: { cpu_limit: '1', memory_limit: '1Gi' }, jobSpecific: [{ jobType: 'sync', resourceRequirements: { cpu_request: '0.5' } }] };
    const allocated = await createSource('allocated', { sourceType: 'chat', credentials: { token: CHAT_TOKEN } }, { resourceAllocation: allocation });
    expect(allocated.status).toBe(200);
    expect(allocated.body.resourceAllocation).toBeUndefined();
    const patched = await call('patch', '/sources/{sourceId}', `/sources/${allocated.body.sourceId}`, {
      body: { resourceAllocation: allocation },
      extension: true,
    });
    expect(patched.status).toBe(200);
    expect((await call('patch', '/destinations/{destinationId}', `/destinations/${destinationId}`, { body: { resourceAllocation: allocation } })).status).toBe(
      200,
    );
    const badAllocation = await raw('POST', '/sources', {
      name: 'x',
      workspaceId,
      configuration: { sourceType: 'chat', credentials: { token: CHAT_TOKEN } },
      resourceAllocation: { cpu: 1 },
    });
    expect([badAllocation.status, badAllocation.body.issues?.[0]?.loc.join('.')]).toEqual([400, 'body.resourceAllocation.cpu']);
  });

  it('keeps deleted sources, destinations and connections as tombstones that only includeDeleted lists', async () => {
    const doomedWorkspace = (await call('post', '/workspaces', '/workspaces', { body: { name: 'tombstones' } })).body.workspaceId as string;
    const source = (await createSource('doomed source', { sourceType: 'chat', credentials: { token: CHAT_TOKEN } }, {}, doomedWorkspace)).body;
    const kept = (await createSource('kept source', { sourceType: 'chat', credentials: { token: CHAT_TOKEN } }, {}, doomedWorkspace)).body;
    const destination = (
      await call('post', '/destinations', '/destinations', {
        body: { name: 'doomed duck', workspaceId: doomedWorkspace, configuration: { destinationType: 'duckdb', destination_path: '/local/doomed.duckdb' } },
      })
    ).body;
    const connectionOf = async (sourceId: string) =>
      (await call('post', '/connections', '/connections', { body: { sourceId, destinationId: destination.destinationId, name: `of ${sourceId}` } })).body;
    const bySource = await connectionOf(source.sourceId);
    const byKept = await connectionOf(kept.sourceId);
    const listed = async (resource: 'sources' | 'destinations' | 'connections', includeDeleted: boolean) =>
      (await call('get', `/${resource}`, `/${resource}?workspaceIds=${doomedWorkspace}&includeDeleted=${includeDeleted}`, { extension: true })).body.data;

    expect((await call('delete', '/sources/{sourceId}', `/sources/${source.sourceId}`)).status).toBe(204);
    expect((await listed('sources', false)).map((s: { sourceId: string }) => s.sourceId)).toEqual([kept.sourceId]);
    // As it was answered, secrets masked, in its place.
    expect(await listed('sources', true)).toEqual([source, kept]);
    expect((await listed('connections', false)).map((c: { connectionId: string }) => c.connectionId)).toEqual([byKept.connectionId]);
    expect(await listed('connections', true)).toEqual([{ ...bySource, status: 'deprecated' }, byKept]);
    // A tombstone is not found, whatever the route.
    expect((await call('get', '/sources/{sourceId}', `/sources/${source.sourceId}`)).status).toBe(404);
    expect((await call('delete', '/sources/{sourceId}', `/sources/${source.sourceId}`)).status).toBe(404);
    expect((await call('get', '/connections/{connectionId}', `/connections/${bySource.connectionId}`)).status).toBe(404);
    expect((await call('patch', '/connections/{connectionId}', `/connections/${bySource.connectionId}`, { body: { name: 'back' } })).status).toBe(404);
    expect((await raw('POST', '/jobs', { connectionId: bySource.connectionId, jobType: 'sync' })).status).toBe(404);
    expect((await raw('GET', `/streams?sourceId=${source.sourceId}`)).status).toBe(404);

    expect((await call('delete', '/destinations/{destinationId}', `/destinations/${destination.destinationId}`)).status).toBe(204);
    expect(await listed('destinations', false)).toEqual([]);
    expect(await listed('destinations', true)).toEqual([destination]);
    expect((await listed('connections', true)).map((c: { status: string }) => c.status)).toEqual(['deprecated', 'deprecated']);
    // Pages over both.
    const firstPage = await call('get', '/sources', `/sources?workspaceIds=${doomedWorkspace}&includeDeleted=true&limit=1`, { extension: true });
    expect([firstPage.body.data, firstPage.body.next === undefined]).toEqual([[source], false]);

    // A declarative definition deleted takes its sources with it: they leave tombstones too.
    const definition = await publishDeclarative(call, doomedWorkspace, 'Doomed members', declarativeManifest(fx, 'doomed-members'));
    const ofDefinition = (await createSource('of a definition', { credentials: { token: CHAT_TOKEN } }, { definitionId: definition }, doomedWorkspace)).body;
    const definitionPath = `/workspaces/${doomedWorkspace}/definitions/declarative_sources/${definition}`;
    expect((await call('delete', '/workspaces/{workspaceId}/definitions/declarative_sources/{definitionId}', definitionPath)).status).toBe(200);
    expect((await listed('sources', true)).map((s: { sourceId: string }) => s.sourceId)).toEqual([source.sourceId, kept.sourceId, ofDefinition.sourceId]);

    // The workspace takes every tombstone with it.
    expect((await call('delete', '/workspaces/{workspaceId}', `/workspaces/${doomedWorkspace}`)).status).toBe(204);
    const left = await fx.server.hosted.cloudDb.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM cloud_tombstones WHERE workspace_id = ?', [
      doomedWorkspace,
    ]);
    expect(Number(left?.n)).toBe(0);
  });

  it('answers a clear job as clear, and a cancelled one cancelled', async () => {
    const source = (await createSource('jobs', { sourceType: 'chat', credentials: { token: CHAT_TOKEN } })).body.sourceId as string;
    const connectionId = (await connect(source, { configurations: { streams: [{ name: 'users' }] } })).body.connectionId as string;
    const clear = await call('post', '/jobs', '/jobs', { body: { connectionId, jobType: 'clear' } });
    expect([clear.status, clear.body.jobType]).toEqual([200, 'clear']);
    const cleared = await settledJob(call, clear.body.jobId);
    expect([cleared.status, cleared.jobType]).toEqual(['succeeded', 'clear']);
    const reset = await call('post', '/jobs', '/jobs', { body: { connectionId, jobType: 'reset' } });
    expect(reset.body.jobType).toBe('reset');
    await settledJob(call, reset.body.jobId);
    const listed = await call('get', '/jobs', `/jobs?connectionId=${connectionId}&orderBy=createdAt|ASC`);
    expect(listed.body.data.map((job: { jobType: string }) => job.jobType)).toEqual(['clear', 'reset']);
    // One kind of job under two names: narrowed to either, both are listed.
    expect((await call('get', '/jobs', `/jobs?connectionId=${connectionId}&jobType=clear`)).body.data).toHaveLength(2);

    // A slow upstream keeps the sync going long enough to be cancelled while it runs (or before).
    fx.chatSandbox.latencyMs = 300;
    try {
      const sync = await call('post', '/jobs', '/jobs', { body: { connectionId, jobType: 'sync' } });
      const cancelled = await call('delete', '/jobs/{jobId}', `/jobs/${sync.body.jobId}`);
      expect([cancelled.status, cancelled.body.status, cancelled.body.jobType]).toEqual([200, 'cancelled', 'sync']);
      expect((await settledJob(call, sync.body.jobId)).status).toBe('cancelled');
    } finally {
      fx.chatSandbox.latencyMs = 0;
    }
  });
});

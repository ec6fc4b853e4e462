import { randomUUID } from 'node:crypto';
import type { ApiConnection, ApiDestination, ApiJob, ApiSource } from '../../core/cloud-client/index.ts';
import type { FakeAnswer, FakeCloudServer, FakeRequest } from './cloud-fake-server.ts';

export const WORKSPACE_ID = '11111111-1111-4111-8111-111111111111';
export const OTHER_WORKSPACE_ID = '22222222-2222-4222-8222-222222222222';

/** The in-memory resources the fake public API serves; tests seed and inspect them. */
export interface FakeApiState {
  sources: Map<string, ApiSource>;
  destinations: Map<string, ApiDestination>;
  connections: Map<string, ApiConnection>;
  /** In creation order. */
  jobs: ApiJob[];
  definitions: Array<{ id: string; name: string; manifest: Record<string, unknown>; version: number }>;
  /** False: the organization look-up fails. */
  organizationReadable: boolean;
}

const notFound = (what: string): FakeAnswer => ({ status: 404, body: { type: 'about:blank', title: 'Not Found', status: 404, detail: `${what} not found` } });

/** A page as the public API serves it (limit/offset; `next` while more remain). */
function page<T>(request: FakeRequest, items: T[]): FakeAnswer {
  const limit = Number(request.query.get('limit') ?? 20);
  const offset = Number(request.query.get('offset') ?? 0);
  const data = items.slice(offset, offset + limit);
  return { body: { data, ...(offset + limit < items.length ? { next: `http://elsewhere/next?offset=${offset + limit}` } : {}) } };
}

function inWorkspaces<T extends { workspaceId: string }>(request: FakeRequest, items: Iterable<T>): T[] {
  const ids = request.query.get('workspaceIds')?.split(',');
  return [...items].filter((item) => !ids || ids.includes(item.workspaceId));
}

/** Serves the public API's resources (and the config API calls the client makes) from memory. */
export function serveFakeApi(fake: FakeCloudServer): FakeApiState {
  const state: FakeApiState = { sources: new Map(), destinations: new Map(), connections: new Map(), jobs: [], definitions: [], organizationReadable: true };
  fake.on('GET', '/v1/workspaces/:id', (_r, { id }) =>
    id === WORKSPACE_ID ? { body: { workspaceId: id, name: 'fake', dataResidency: 'us' } } : notFound('workspace'),
  );

  for (const [noun, map, idKey, typeKey] of [
    ['sources', state.sources, 'sourceId', 'sourceType'],
    ['destinations', state.destinations, 'destinationId', 'destinationType'],
  ] as const) {
    const store = map as Map<string, any>;
    fake.on('GET', `/v1/${noun}`, (request) => page(request, inWorkspaces(request, store.values())));
    fake.on('POST', `/v1/${noun}`, (request) => {
      const { name, workspaceId, configuration, definitionId } = request.body;
      const id = randomUUID();
      const item = { [idKey]: id, name, workspaceId, configuration, [typeKey]: configuration[typeKey] ?? 'custom', definitionId: definitionId ?? randomUUID() };
      store.set(id, item);
      return { body: item };
    });
    fake.on('GET', `/v1/${noun}/:id`, (_r, { id }) => (store.has(id!) ? { body: store.get(id!) } : notFound(noun)));
    fake.on('PATCH', `/v1/${noun}/:id`, (request, { id }) => {
      if (!store.has(id!)) return notFound(noun);
      const item = { ...store.get(id!), ...request.body };
      store.set(id!, item);
      return { body: item };
    });
    fake.on('DELETE', `/v1/${noun}/:id`, (_r, { id }) => (store.delete(id!) ? { status: 204 } : notFound(noun)));
  }

  fake.on('GET', '/v1/connections', (request) => page(request, inWorkspaces(request, state.connections.values())));
  fake.on('POST', '/v1/connections', (request) => {
    const { name, sourceId, destinationId, prefix, configurations } = request.body;
    const connection: ApiConnection = {
      connectionId: randomUUID(),
      name,
      sourceId,
      destinationId,
      workspaceId: state.sources.get(sourceId)?.workspaceId ?? WORKSPACE_ID,
      status: 'active',
      schedule: { scheduleType: 'manual' },
      prefix: prefix ?? '',
      configurations,
    };
    state.connections.set(connection.connectionId, connection);
    return { body: connection };
  });
  fake.on('GET', '/v1/connections/:id', (_r, { id }) => (state.connections.has(id!) ? { body: state.connections.get(id!) } : notFound('connection')));
  fake.on('PATCH', '/v1/connections/:id', (request, { id }) => {
    const found = state.connections.get(id!);
    if (!found) return notFound('connection');
    const changed = { ...found, ...request.body };
    state.connections.set(id!, changed);
    return { body: changed };
  });
  fake.on('DELETE', '/v1/connections/:id', (_r, { id }) => (state.connections.delete(id!) ? { status: 204 } : notFound('connection')));

  fake.on('POST', '/v1/jobs', (request) => {
    const job: ApiJob = {
      jobId: state.jobs.length + 1,
      status: 'pending',
      jobType: request.body.jobType,
      connectionId: request.body.connectionId,
      startTime: new Date(Date.UTC(2026, 0, 1, 0, state.jobs.length)).toISOString(),
      bytesSynced: 0,
      rowsSynced: 0,
    };
    state.jobs.push(job);
    return { body: job };
  });
  fake.on('GET', '/v1/jobs', (request) => {
    const connectionId = request.query.get('connectionId');
    const jobType = request.query.get('jobType');
    const jobs = state.jobs.filter((job) => (!connectionId || job.connectionId === connectionId) && (!jobType || job.jobType === jobType));
    if ((request.query.get('orderBy') ?? 'createdAt|DESC').endsWith('DESC')) jobs.reverse();
    return page(request, jobs);
  });
  fake.on('GET', '/v1/jobs/:id', (_r, { id }) => {
    const job = state.jobs.find((candidate) => candidate.jobId === Number(id));
    return job ? { body: job } : notFound('job');
  });

  const definitions = `/v1/workspaces/${WORKSPACE_ID}/definitions/declarative_sources`;
  fake.on('GET', definitions, (request) => page(request, state.definitions));
  fake.on('POST', definitions, (request) => {
    const definition = { id: randomUUID(), name: request.body.name, manifest: request.body.manifest, version: 1 };
    state.definitions.push(definition);
    return { body: definition };
  });

  fake.on('GET', `${definitions}/:id`, (_r, { id }) => {
    const definition = state.definitions.find((candidate) => candidate.id === id);
    return definition ? { body: definition } : notFound('definition');
  });

  fake.on('POST', '/api/v1/workspaces/get_organization_info', (request) =>
    state.organizationReadable && request.body.workspaceId === WORKSPACE_ID
      ? { body: { organizationId: 'org-1', organizationName: 'Fake org', sso: false, scim: false } }
      : { status: 403, body: { detail: 'Access denied to this resource' } },
  );
  fake.on('POST', '/api/v1/web_backend/connections/get', (request) =>
    state.connections.has(request.body.connectionId)
      ? { body: { connectionId: request.body.connectionId, syncCatalog: { streams: [{ stream: { name: 'users' }, config: { selected: true } }] } } }
      : { status: 404, body: { message: 'not found' } },
  );
  fake.on('POST', '/api/v1/state/get', (request) => ({ body: { stateType: 'not_set', connectionId: request.body.connectionId } }));
  return state;
}

/** Seeds a source, a destination and a connection between them. */
export function seedConnection(
  state: FakeApiState,
  names: { connection?: string; source?: string; destination?: string; workspaceId?: string } = {},
): ApiConnection {
  const workspaceId = names.workspaceId ?? WORKSPACE_ID;
  const source: ApiSource = { sourceId: randomUUID(), name: names.source ?? 'src', sourceType: 'slack', workspaceId, configuration: {} };
  const destination: ApiDestination = {
    destinationId: randomUUID(),
    name: names.destination ?? 'dst',
    destinationType: 'sqlite',
    workspaceId,
    configuration: { destinationType: 'sqlite' },
  };
  const connection: ApiConnection = {
    connectionId: randomUUID(),
    name: names.connection ?? 'conn',
    sourceId: source.sourceId,
    destinationId: destination.destinationId,
    workspaceId,
    status: 'active',
    schedule: { scheduleType: 'manual' },
    prefix: 'p_',
    configurations: { streams: [{ name: 'users' }, { name: 'channels' }] },
  };
  state.sources.set(source.sourceId, source);
  state.destinations.set(destination.destinationId, destination);
  state.connections.set(connection.connectionId, connection);
  return connection;
}

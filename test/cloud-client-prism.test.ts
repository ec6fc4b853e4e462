import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CloudApiError,
  CloudClientConfig,
  type CloudConnection,
  CloudDestination,
  CloudSource,
  CloudWorkspace,
  CustomCloudSourceDefinition,
  DuplicateResourcesError,
  InputError,
  JobStatus,
  MissingResourceError,
  NoopError,
  SyncResult,
  WorkspaceMismatchError,
} from '../core/cloud-client/index.ts';
import { type PrismMock, startPrismMock, writeAirbyteMockDocuments } from './helpers/prism-mock.ts';

/**
 * plugboard/cloud against mocks generated from the official documents by Stoplight Prism, which
 * validates every request: the public API (api_sdk.yaml, plus the token endpoint of api.yaml) and
 * the config API (config.yaml), each in its own Prism. A request that breaks its operation (path,
 * method, parameters, body, authentication) is answered 4xx, which the library throws, and is logged;
 * after every test the logs must hold no request problem.
 *
 * The answers are the documents' static examples where they satisfy their schemas, else bodies Prism
 * makes from the schemas ("string", 0, the first enum value, a UUID derived from the property's name),
 * the same whatever the request asks for: the tests check shapes and types, not values, and where the
 * mock's data makes one of the library's rules fire they take the way around it (said at each place).
 * Skipped when the documents are absent (PLUGBOARD_REQUIRE_SPECS=1 fails instead).
 */

/** Any UUID: the mock answers the same whatever id a path names. */
const SOME_ID = '6f1d4c52-8a51-4a8e-9b3c-2f0e4d1a7b90';

const folder = mkdtempSync(join(tmpdir(), 'plugboard-prism-'));
const documents = writeAirbyteMockDocuments(folder);
if (!documents) rmSync(folder, { recursive: true, force: true });

/** Prism compiles an operation's schemas on its first request; SourceConfiguration (every source type, a oneOf) takes seconds. */
const SLOW = 240_000;

const faker = () => ({ sourceType: 'faker', count: 10, seed: 42 });
const duckdb = () => ({ destinationType: 'duckdb', destination_path: '/local/prism.duckdb' });

describe.skipIf(!documents)('plugboard/cloud against Prism mocks of the official API documents', () => {
  let publicApi: PrismMock;
  let configApi: PrismMock;
  let config: CloudClientConfig;
  let workspace: CloudWorkspace;
  let source: CloudSource;
  let destination: CloudDestination;
  let connection: CloudConnection;

  beforeAll(async () => {
    [publicApi, configApi] = await Promise.all([startPrismMock(documents!.publicApi), startPrismMock(documents!.configApi)]);
    config = new CloudClientConfig({
      clientId: 'prism-client-id',
      clientSecret: 'prism-client-secret',
      // Prism serves the paths from its root, ignoring the documents' `servers`.
      apiRoot: publicApi.url,
      configApiRoot: `${configApi.url}/v1`,
    });
    // The library keeps only a workspace's own items of a list, and the mock's items name the one
    // workspace id it generates: the tests use that workspace, as GET /workspaces/{id} answers it.
    // Prism checks a request against the document's hundreds of connector schemas, compiled at the
    // first one: 40 s on a quiet 2-core machine, more beside other test files.
    const { workspaceId } = await new CloudWorkspace({ workspaceId: SOME_ID, config, timeoutMs: SLOW }).connect();
    workspace = new CloudWorkspace({ workspaceId, config, timeoutMs: SLOW });
  }, SLOW);

  afterEach(async () => {
    // Every request the test made passed Prism's validation.
    const problems = [...(await publicApi.takeProblems()), ...(await configApi.takeProblems())];
    expect(problems.map(({ request, line }) => `${request}: ${line}`)).toEqual([]);
  });

  afterAll(async () => {
    await Promise.all([publicApi?.stop(), configApi?.stop()]);
    rmSync(folder, { recursive: true, force: true });
  });

  it('refuses an invalid request (the validation the other tests rely on is on)', async () => {
    const response = await fetch(`${publicApi.url}/connections/${SOME_ID}`, {
      method: 'PATCH',
      headers: { authorization: 'Bearer not-checked-by-the-mock', 'content-type': 'application/json' },
      body: JSON.stringify({ schedule: { scheduleType: 'hourly' } }),
    });
    expect(response.status).toBe(422);
    const unauthenticated = await fetch(`${publicApi.url}/workspaces/${SOME_ID}`);
    expect(unauthenticated.status).toBe(401);
    const problems = await publicApi.takeProblems();
    expect(problems.map((problem) => problem.request)).toEqual(expect.arrayContaining([expect.stringMatching(/^PATCH \/connections\//)]));
    expect(problems.some(({ line }) => line.includes('scheduleType'))).toBe(true);
  });

  it('connects with client credentials, exchanged at the token endpoint', async () => {
    const answer = await workspace.connect();
    expect(answer).toMatchObject({ workspaceId: workspace.workspaceId, name: expect.any(String) });
    expect(publicApi.log()).toMatch(/post \/applications\/token .*Request received/);
    expect(workspace.config.usesClientCredentials).toBe(true);
  });

  it(
    'deploys a source and a destination (configurations validated against their connector schemas)',
    async () => {
      source = await workspace.deploySource('prism faker', faker());
      expect(source).toBeInstanceOf(CloudSource);
      expect(source.sourceId).toEqual(expect.any(String));
      destination = await workspace.deployDestination('prism duckdb', duckdb());
      expect(destination).toBeInstanceOf(CloudDestination);
      expect(destination.destinationId).toEqual(expect.any(String));
      // A configuration with a definition id, and no uniqueness check.
      const withDefinition = await workspace.deploySource(
        'prism faker 2',
        { configuration: faker(), definitionId: 'dfd88b22-b603-4c3d-aad7-3701784586b1' },
        { unique: false, randomNameSuffix: true },
      );
      expect(withDefinition.sourceId).toEqual(expect.any(String));
    },
    SLOW,
  );

  it(
    'is refused a source configuration its connector schema rejects (patch 2: source schemas compile)',
    async () => {
      const failure = await workspace.deploySource('prism faker', { sourceType: 'faker', count: 0 }, { unique: false }).catch((error) => error);
      expect(failure).toBeInstanceOf(CloudApiError);
      expect([400, 422]).toContain(failure.status);
      const problems = await publicApi.takeProblems();
      expect(problems.some(({ line }) => /configuration\.count must be >= 1/.test(line))).toBe(true);
    },
    SLOW,
  );

  it('refuses a name the workspace already has (unique names)', async () => {
    // The mock's lists hold one source and one destination, named "string": the other tests deploy other names.
    const [taken] = await workspace.listSources();
    await expect(workspace.deploySource(await taken!.name(), faker())).rejects.toBeInstanceOf(DuplicateResourcesError);
    const [takenDestination] = await workspace.listDestinations();
    await expect(workspace.deployDestination(await takenDestination!.name(), duckdb())).rejects.toBeInstanceOf(DuplicateResourcesError);
  });

  it('deploys a connection', async () => {
    connection = await workspace.deployConnection('prism connection', {
      source,
      destination: destination.destinationId,
      selectedStreams: ['users', 'products'],
      tablePrefix: 'prism_',
    });
    expect(connection.connectionId).toEqual(expect.any(String));
  });

  it('gets a connection and its properties', async () => {
    const got = workspace.getConnection(connection.connectionId);
    expect(await got.checkIsValid()).toBe(true);
    expect(typeof (await got.name())).toBe('string');
    expect(typeof (await got.sourceId())).toBe('string');
    expect(typeof (await got.destinationId())).toBe('string');
    expect(await got.source()).toBeInstanceOf(CloudSource);
    expect(await got.destination()).toBeInstanceOf(CloudDestination);
    expect(typeof (await got.tablePrefix())).toBe('string');
    expect(typeof (await got.isEnabled())).toBe('boolean');
    const streams = await got.streamNames();
    expect(streams.length).toBeGreaterThan(0);
    for (const stream of streams) expect(typeof stream).toBe('string');
    expect(got.connectionUrl).toContain(connection.connectionId);
    // Seen from another workspace, the connection (naming the mock's workspace) is not there.
    const elsewhere = new CloudWorkspace({ workspaceId: SOME_ID, config });
    await expect(elsewhere.getConnection(connection.connectionId).checkIsValid()).rejects.toBeInstanceOf(WorkspaceMismatchError);
  });

  it('lists sources, destinations and connections', async () => {
    const sources = await workspace.listSources();
    expect(sources.length).toBeGreaterThan(0);
    for (const listed of sources) {
      expect(listed).toBeInstanceOf(CloudSource);
      expect(typeof (await listed.name())).toBe('string');
    }
    const destinations = await workspace.listDestinations({ nameFilter: (name) => name.length > 0 });
    expect(destinations.length).toBeGreaterThan(0);
    for (const listed of destinations) expect(listed).toBeInstanceOf(CloudDestination);
    expect(await workspace.listSources({ name: 'no such name' })).toEqual([]);
    // ConnectionsResponse's `data` defaults to [], and Prism generates defaults: the mock has no connection to list.
    const connections = await workspace.listConnections();
    expect(Array.isArray(connections)).toBe(true);
    for (const listed of connections) expect(typeof (await listed.sourceId())).toBe('string');
  });

  it('checks a source through the config API', async () => {
    const result = await source.checkConnection();
    expect(['succeeded', 'failed']).toContain(result.status);
  });

  it('runs a sync without waiting, and reads its job, status, attempts and the previous jobs', async () => {
    const result = await connection.runSync({ wait: false });
    expect(result).toBeInstanceOf(SyncResult);
    expect(typeof result.jobId).toBe('number');
    expect(Object.values(JobStatus)).toContain(await result.getJobStatus());
    expect(typeof (await result.isJobComplete())).toBe('boolean');
    expect(await result.waitForCompletion({ waitTimeout: 0, raiseTimeout: false })).toEqual(expect.any(String));
    const attempts = await result.getAttempts();
    expect(Array.isArray(attempts)).toBe(true);
    for (const attempt of attempts) expect(attempt).toMatchObject({ attemptNumber: expect.any(Number), createdAt: expect.any(Date) });

    const newest = await connection.getSyncResult();
    expect(newest).toBeInstanceOf(SyncResult);
    const previous = await connection.getPreviousSyncLogs();
    expect(previous.length).toBeGreaterThan(0);
    for (const job of previous) expect(job).toBeInstanceOf(SyncResult);
    for (const job of previous) expect(typeof job.jobId).toBe('number');
    expect(Array.isArray(await connection.getPreviousSyncLogs({ fromTail: false, limit: 5, offset: 1 }))).toBe(true);
    // The mock's job names the mock's connection, which is ours (both answer the same generated id).
    expect((await connection.getSyncResult(result.jobId))!.jobId).toBe(result.jobId);
    // Another connection's job is refused by the library.
    await expect(workspace.getConnection(SOME_ID).getSyncResult(result.jobId)).rejects.toBeInstanceOf(MissingResourceError);
  });

  it('reads the catalog and state through the config API', async () => {
    const catalog = await connection.getCatalogArtifact();
    if (catalog !== null) expect(Array.isArray(catalog.streams)).toBe(true);
    const state = await connection.getStateArtifacts();
    if (state !== null) expect(Array.isArray(state)).toBe(true);
  });

  it('changes the name, schedule, status, streams and prefix', async () => {
    expect(await connection.rename('prism connection renamed')).toBe(connection);
    expect(await connection.setSchedule('0 0 12 * * ?')).toBe(connection);
    expect(await connection.setManualSchedule()).toBe(connection);
    expect(await connection.setSelectedStreams(['users'])).toBe(connection);
    expect(await connection.setTablePrefix('prism2_')).toBe(connection);
    // The mock's connection is always `active` (the first status): disabling it sends the change
    // (PATCH {status: inactive}), enabling it is the no-op.
    expect(await connection.isEnabled()).toBe(true);
    const patches = () => publicApi.log().match(/patch \/connections\/\S+ .*Request received/g)?.length ?? 0;
    // Prism logs each request on its own output, which may reach us after its answer: counted once a
    // mark request is logged after it (takeProblems), each time.
    expect(await publicApi.takeProblems()).toEqual([]);
    const before = patches();
    expect(await connection.setEnabled(false)).toBe(connection);
    expect(await publicApi.takeProblems()).toEqual([]);
    expect(patches()).toBe(before + 1);
    expect(await connection.setEnabled(true)).toBe(connection);
    await expect(connection.setEnabled(true, { ignoreNoop: false })).rejects.toBeInstanceOf(NoopError);
    expect(await publicApi.takeProblems()).toEqual([]);
    expect(patches()).toBe(before + 1);
  });

  it('answers the organization through the config API', async () => {
    expect(await workspace.getOrganization()).toEqual({ organizationId: expect.any(String), organizationName: expect.any(String) });
  });

  it(
    'publishes, lists, reads, updates and deletes a yaml custom source definition',
    async () => {
      const manifestYaml = readFileSync(new URL('../docs/examples/declarative-source.yaml', import.meta.url), 'utf8');
      // The mock's list holds one definition, named "string": the name published here is another.
      const definition = await workspace.publishCustomSourceDefinition('prism members', { manifestYaml });
      expect(definition).toBeInstanceOf(CustomCloudSourceDefinition);
      expect(definition).toMatchObject({ definitionType: 'yaml', definitionId: expect.any(String), name: expect.any(String) });
      expect(typeof definition.version).toBe('number');
      const listed = await workspace.listCustomSourceDefinitions('yaml');
      expect(listed.length).toBeGreaterThan(0);
      for (const item of listed) expect(item).toBeInstanceOf(CustomCloudSourceDefinition);
      const got = await workspace.getCustomSourceDefinition(definition.definitionId, 'yaml');
      expect(typeof got.manifest).toBe('object');
      await got.refresh();
      expect(await got.updateManifest({ ...(definition.manifest ?? {}), type: 'DeclarativeSource' })).toBe(got);
      await got.permanentlyDelete();
      const docker = await workspace.listCustomSourceDefinitions('docker');
      for (const item of docker) expect(item).toMatchObject({ definitionType: 'docker', dockerRepository: expect.any(String) });
    },
    SLOW,
  );

  it('publishes a yaml definition with testing values (config API builder project)', async () => {
    const manifestYaml = readFileSync(new URL('../docs/examples/declarative-source.yaml', import.meta.url), 'utf8');
    const definition = await workspace.publishCustomSourceDefinition('prism members tested', { manifestYaml }, { testingValues: { api_key: 'k' } });
    expect(definition.definitionId).toEqual(expect.any(String));
  });

  it(
    'deletes with safe mode off (nothing in the mock is named for deletion), cascades included',
    async () => {
      // Safe mode refuses: the mock's names ("string") contain no delete-me.
      await expect(workspace.permanentlyDeleteConnection(connection)).rejects.toBeInstanceOf(InputError);
      await expect(source.permanentlyDelete()).rejects.toBeInstanceOf(InputError);
      await workspace.permanentlyDeleteConnection(connection.connectionId, { safeMode: false, cascadeDeleteSource: true, cascadeDeleteDestination: true });
      await connection.permanentlyDelete({ safeMode: false });
      await workspace.permanentlyDeleteSource(source, { safeMode: false });
      await destination.permanentlyDelete({ safeMode: false });
      await workspace.permanentlyDeleteDestination(destination.destinationId, { safeMode: false });
    },
    SLOW,
  );
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CloudError, CloudWorkspace, DuplicateResourcesError, InputError, MissingResourceError, UnsupportedFeatureError } from '../core/cloud-client/index.ts';
import { type FakeApiState, seedConnection, serveFakeApi, WORKSPACE_ID } from './helpers/cloud-fake-api.ts';
import { CLIENT_ID, CLIENT_SECRET, FakeCloudServer } from './helpers/cloud-fake-server.ts';

/** CloudWorkspace's rules against a fake public API: lazy objects, lists, deploys, safe mode, publishing, the organization. */

describe('CloudWorkspace', () => {
  let fake: FakeCloudServer;
  let state: FakeApiState;
  let workspace: CloudWorkspace;

  beforeAll(async () => {
    fake = await FakeCloudServer.start();
    state = serveFakeApi(fake);
    workspace = new CloudWorkspace({ workspaceId: WORKSPACE_ID, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, apiRoot: fake.apiRoot });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    state.sources.clear();
    state.destinations.clear();
    state.connections.clear();
    state.definitions.length = 0;
    state.jobs.length = 0;
  });

  it('connects, and says why it cannot', async () => {
    expect(await workspace.connect()).toMatchObject({ workspaceId: WORKSPACE_ID });
    const elsewhere = new CloudWorkspace({ workspaceId: 'nope', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, apiRoot: fake.apiRoot });
    await expect(elsewhere.connect()).rejects.toBeInstanceOf(MissingResourceError);
    const badCredentials = new CloudWorkspace({ workspaceId: WORKSPACE_ID, clientId: CLIENT_ID, clientSecret: 'wrong', apiRoot: fake.apiRoot });
    await expect(badCredentials.connect()).rejects.toMatchObject({ status: 401 });
  });

  it('hands out connections, sources and destinations without a call, loading them on first use, once', async () => {
    const seeded = seedConnection(state, { connection: 'lazy one' });
    const connection = workspace.getConnection(seeded.connectionId);
    const source = workspace.getSource(seeded.sourceId);
    const destination = workspace.getDestination(seeded.destinationId);
    expect(connection.connectionId).toBe(seeded.connectionId);
    expect(connection.connectionUrl).toBe(`${fake.apiRoot}/workspaces/${WORKSPACE_ID}/connections/${seeded.connectionId}`);
    expect(connection.jobHistoryUrl).toBe(`${connection.connectionUrl}/job-history`);
    expect(source.connectorUrl).toBe(`${fake.apiRoot}/workspaces/${WORKSPACE_ID}/sources/${seeded.sourceId}`);
    expect(destination.destinationId).toBe(seeded.destinationId);
    expect(connection.workspace).toBe(workspace);
    expect(fake.requests).toHaveLength(0);

    expect(await connection.name()).toBe('lazy one');
    expect(await connection.streamNames()).toEqual(['users', 'channels']);
    expect(await connection.tablePrefix()).toBe('p_');
    expect(await connection.sourceId()).toBe(seeded.sourceId);
    expect((await connection.destination()).destinationId).toBe(seeded.destinationId);
    expect(fake.apiRequests()).toHaveLength(1);
    expect(await source.name()).toBe('src');
    expect(await destination.destinationType()).toBe('sqlite');
    expect(fake.apiRequests()).toHaveLength(3);

    // A missing one fails when read, not when handed out.
    const missing = workspace.getConnection('no-such-connection');
    await expect(missing.name()).rejects.toBeInstanceOf(MissingResourceError);
  });

  it('lists every page, narrowed by name and by a predicate, only its own', async () => {
    for (let i = 0; i < 230; i++) {
      state.sources.set(`s${i}`, {
        sourceId: `s${i}`,
        name: i % 2 ? `odd ${i}` : `even ${i}`,
        sourceType: 'slack',
        workspaceId: WORKSPACE_ID,
        configuration: {},
      });
    }
    state.sources.set('x', { sourceId: 'x', name: 'even 0', sourceType: 'slack', workspaceId: 'another', configuration: {} });
    expect(await workspace.listSources()).toHaveLength(230);
    expect(fake.apiRequests().map((request) => request.query.get('offset'))).toEqual(['0', '100', '200']);
    expect(fake.apiRequests().every((request) => request.query.get('workspaceIds') === WORKSPACE_ID)).toBe(true);
    expect((await workspace.listSources({ name: 'even 0' })).map((source) => source.sourceId)).toEqual(['s0']);
    expect(await workspace.listSources({ nameFilter: (name) => name.startsWith('odd') })).toHaveLength(115);
    expect(await workspace.listSources({ name: 'odd 3', nameFilter: (name) => name.startsWith('even') })).toEqual([]);
    // Listed objects carry their data: reading it makes no call.
    const [first] = await workspace.listSources({ name: 'odd 1' });
    const calls = fake.requests.length;
    expect(await first!.name()).toBe('odd 1');
    expect(fake.requests.length).toBe(calls);

    seedConnection(state, { connection: 'alpha' });
    seedConnection(state, { connection: 'beta' });
    expect((await workspace.listConnections({ name: 'beta' })).length).toBe(1);
    expect((await workspace.listDestinations()).length).toBe(2);
    expect((await workspace.listConnections({ nameFilter: (name) => name.includes('a') })).length).toBe(2);
  });

  it('deploys sources and destinations, refusing a taken name unless told otherwise', async () => {
    const source = await workspace.deploySource('team chat', { sourceType: 'slack', credentials: { api_token: 't' } });
    expect(await source.name()).toBe('team chat');
    expect(state.sources.get(source.sourceId)?.configuration).toEqual({ sourceType: 'slack', credentials: { api_token: 't' } });
    await expect(workspace.deploySource('team chat', { sourceType: 'slack' })).rejects.toBeInstanceOf(DuplicateResourcesError);
    await workspace.deploySource('team chat', { sourceType: 'slack' }, { unique: false });
    const suffixed = await workspace.deploySource('team chat', { sourceType: 'slack' }, { randomNameSuffix: true });
    expect(await suffixed.name()).toMatch(/^team chat \(ID: [0-9a-f]{8}\)$/);

    const destination = await workspace.deployDestination('lake', { configuration: { destinationType: 'sqlite' }, definitionId: 'def-1' });
    expect(state.destinations.get(destination.destinationId)).toMatchObject({ definitionId: 'def-1', configuration: { destinationType: 'sqlite' } });
    await expect(workspace.deployDestination('lake', { destinationType: 'sqlite' })).rejects.toThrow(/named "lake" already exists/);

    const connection = await workspace.deployConnection('chat → lake', {
      source,
      destination: destination.destinationId,
      selectedStreams: ['users'],
      tablePrefix: 'chat_',
    });
    const before = fake.requests.length;
    expect(await connection.streamNames()).toEqual(['users']);
    expect(await connection.tablePrefix()).toBe('chat_');
    expect(fake.requests.length).toBe(before);
    await expect(workspace.deployConnection('none', { source, destination, selectedStreams: [] })).rejects.toBeInstanceOf(InputError);
  });

  it('deletes in safe mode only what is named for deletion, cascades included, checked before anything goes', async () => {
    const safe = seedConnection(state, { connection: 'old Delete-Me connection', source: 'src', destination: 'dst deleteme' });
    await expect(workspace.permanentlyDeleteConnection(safe.connectionId, { cascadeDeleteSource: true })).rejects.toThrow(/safe mode.*source/);
    expect(state.connections.has(safe.connectionId)).toBe(true);
    await workspace.permanentlyDeleteConnection(safe.connectionId, { cascadeDeleteDestination: true });
    expect(state.connections.has(safe.connectionId)).toBe(false);
    expect(state.destinations.has(safe.destinationId)).toBe(false);
    expect(state.sources.has(safe.sourceId)).toBe(true);

    const unsafe = seedConnection(state, { connection: 'production', source: 'DELETEME source', destination: 'keep' });
    await expect(workspace.getConnection(unsafe.connectionId).permanentlyDelete()).rejects.toBeInstanceOf(InputError);
    await expect(workspace.permanentlyDeleteDestination(unsafe.destinationId)).rejects.toBeInstanceOf(InputError);
    await expect(workspace.permanentlyDeleteSource(safe.sourceId)).rejects.toBeInstanceOf(InputError);
    expect(state.connections.size + state.destinations.size).toBe(2);
    await workspace.permanentlyDeleteSource(workspace.getSource(unsafe.sourceId));
    expect(state.sources.has(unsafe.sourceId)).toBe(false);
    await workspace.permanentlyDeleteDestination(unsafe.destinationId, { safeMode: false });
    await workspace.getConnection(unsafe.connectionId).permanentlyDelete({ safeMode: false });
    expect(state.connections.size + state.destinations.size).toBe(0);

    const cascade = seedConnection(state, { connection: 'delete-me', source: 'deleteme s', destination: 'x-DELETE-ME-x' });
    await workspace.getConnection(cascade.connectionId).permanentlyDelete({ cascadeDeleteSource: true, cascadeDeleteDestination: true });
    expect(state.connections.size + state.sources.size + state.destinations.size).toBe(1);
  });

  it('publishes custom source definitions: exactly one kind, unique names, manifests checked first', async () => {
    const manifest = 'type: team-members\ndisplayName: Team\nactions: []\n';
    const published = await workspace.publishCustomSourceDefinition('members', { manifestYaml: manifest });
    expect(published).toMatchObject({ name: 'members', definitionType: 'yaml', version: 1 });
    expect(published.manifest).toEqual({ type: 'team-members', displayName: 'Team', actions: [] });
    expect(fake.apiRequests().at(-1)!.body).toEqual({ name: 'members', manifest: published.manifest, workspaceId: WORKSPACE_ID });
    await expect(workspace.publishCustomSourceDefinition('members', { manifestYaml: manifest })).rejects.toBeInstanceOf(DuplicateResourcesError);
    await workspace.publishCustomSourceDefinition('members', { manifestYaml: { type: 'other' } }, { unique: false });
    expect(state.definitions).toHaveLength(2);

    const calls = fake.requests.length;
    const wrong: any[] = [
      {},
      { manifestYaml: manifest, dockerImage: 'img', dockerTag: '1' },
      { dockerImage: 'img' },
      { dockerTag: '1' },
      { manifestYaml: null },
    ];
    for (const definition of wrong) await expect(workspace.publishCustomSourceDefinition('x', definition)).rejects.toBeInstanceOf(InputError);
    await expect(workspace.publishCustomSourceDefinition('x', { manifestYaml: 'a: [' })).rejects.toThrow(/not valid YAML/);
    await expect(workspace.publishCustomSourceDefinition('x', { manifestYaml: '- a\n- b' })).rejects.toThrow(/mapping/);
    await expect(workspace.publishCustomSourceDefinition('x', { manifestYaml: 'displayName: x' })).rejects.toThrow(/names no type/);
    await expect(workspace.publishCustomSourceDefinition('x', { dockerImage: 'i', dockerTag: '1' }, { testingValues: {} })).rejects.toBeInstanceOf(InputError);
    expect(fake.requests.length).toBe(calls);
    // Without preValidate the server judges the manifest.
    await workspace.publishCustomSourceDefinition('loose', { manifestYaml: 'displayName: x' }, { preValidate: false });

    expect((await workspace.listCustomSourceDefinitions('yaml', { name: 'loose' })).map((d) => d.name)).toEqual(['loose']);
    expect((await workspace.getCustomSourceDefinition(published.definitionId, 'yaml')).manifest).toEqual(published.manifest);
    await expect(workspace.getCustomSourceDefinition('nope', 'yaml')).rejects.toBeInstanceOf(MissingResourceError);
    // A server without docker definitions (as Plugboard's) says so.
    await expect(workspace.listCustomSourceDefinitions('docker')).rejects.toBeInstanceOf(UnsupportedFeatureError);
    await expect(workspace.publishCustomSourceDefinition('d', { dockerImage: 'airbyte/source-x', dockerTag: '1.0' })).rejects.toBeInstanceOf(
      UnsupportedFeatureError,
    );
    await expect(workspace.listCustomSourceDefinitions('zip' as any)).rejects.toBeInstanceOf(InputError);
    // Testing values go to the builder project through the config API; the definition is published either way.
    await expect(workspace.publishCustomSourceDefinition('tv', { manifestYaml: manifest }, { unique: false, testingValues: { a: 1 } })).rejects.toThrow(
      /was published, but its testing values could not be set/,
    );
  });

  it('reads the organization, or answers null when told not to raise', async () => {
    expect(await workspace.getOrganization()).toEqual({ organizationId: 'org-1', organizationName: 'Fake org' });
    state.organizationReadable = false;
    try {
      const failure = await workspace.getOrganization().catch((error) => error);
      expect(failure).toBeInstanceOf(CloudError);
      expect(failure.constructor).toBe(CloudError);
      expect(await workspace.getOrganization({ raiseOnError: false })).toBeNull();
    } finally {
      state.organizationReadable = true;
    }
  });
});

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceDataDir } from '../core/hosted/sync/destinations/create-destination.ts';
import { type CloudConnection, CloudWorkspace, InputError, JobStatus, MissingResourceError, NoopError } from '../core/cloud-client/index.ts';
import { paginate } from '../core/execution/paginate.ts';
import type { ExecuteResult } from '../core/execution/types.ts';
import { CHAT_TOKEN, slackSourceConfiguration } from './helpers/chat-fixture.ts';
import { BACKENDS, bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';
import { publicAccessToken } from './helpers/public-api-calls.ts';
import { DESTINATION_TYPES, testDestination } from './helpers/sync-destinations.ts';

/**
 * plugboard/cloud end to end against Plugboard's own server: a workspace reached with the application's
 * credentials, a chat source on the Slack sandbox, a SQLite destination, a connection, a sync waited
 * for, its result, attempts, logs, artifacts and tables, the connection's changes, and deletion in
 * safe mode with cascades.
 */

const slack = slackSourceConfiguration;

describe.each(BACKENDS)('plugboard/cloud against the server on %s', (backend) => {
  let fx: HostedFixture;
  let workspace: CloudWorkspace;
  let workspaceId: string;
  let connection: CloudConnection;

  beforeAll(async () => {
    fx = await startHostedFixture(backend);
    const token = await publicAccessToken(fx);
    const created = await fx.http.post('v1/workspaces', { headers: bearer(token), json: { name: 'cloud-client-ws' } }).json<{ workspaceId: string }>();
    workspaceId = created.workspaceId;
    workspace = new CloudWorkspace({
      workspaceId,
      clientId: fx.clientId,
      clientSecret: fx.clientSecret,
      apiRoot: `${fx.server.url}/v1`,
      localRoot: workspaceDataDir(fx.dataDir, workspaceId),
    });
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('connects with client credentials or a bearer token, and through /api/public/v1', async () => {
    expect(await workspace.connect()).toMatchObject({ workspaceId, name: 'cloud-client-ws' });
    const withBearer = new CloudWorkspace({ workspaceId, bearerToken: await publicAccessToken(fx), apiRoot: `${fx.server.url}/api/public/v1` });
    expect((await withBearer.connect()).workspaceId).toBe(workspaceId);
    expect(withBearer.config.configApiRoot).toBe(`${fx.server.url}/api/v1`);
    expect(await withBearer.getOrganization()).toMatchObject({ organizationId: expect.any(String), organizationName: expect.any(String) });
    const wrong = new CloudWorkspace({ workspaceId, clientId: fx.clientId, clientSecret: 'not-the-secret', apiRoot: `${fx.server.url}/v1` });
    const failure = await wrong.connect().catch((error) => error);
    expect(failure.status).toBe(401);
    expect(failure.message).not.toContain('not-the-secret');
  });

  it('deploys a chat source, a SQLite destination and a connection, syncs, and reads the result', async () => {
    const source = await workspace.deploySource('team chat', slack());
    expect(await source.sourceType()).toBe('slack');
    expect(await source.checkConnection()).toMatchObject({ status: 'succeeded' });
    await expect(workspace.deploySource('team chat', slack())).rejects.toThrow(/already exists/);
    const destination = await workspace.deployDestination('lake deleteme', { destinationType: 'sqlite' });
    expect(await destination.destinationType()).toBe('sqlite');
    connection = await workspace.deployConnection('chat to lake delete-me', {
      source,
      destination,
      selectedStreams: ['users', 'channels', 'channel_messages'],
      tablePrefix: 'chat_',
    });
    expect(await connection.checkIsValid()).toBe(true);
    expect(await connection.streamNames()).toEqual(['users', 'channels', 'channel_messages']);
    expect(await connection.getSyncResult()).toBeNull();
    expect(await connection.getStateArtifacts()).toBeNull();

    const result = await connection.runSync({ wait: true, waitTimeout: 120 });
    expect(await result.getJobStatus()).toBe(JobStatus.SUCCEEDED);
    expect(await result.isJobComplete()).toBe(true);
    const { users, channels } = fx.chatSandbox.data;
    expect(await result.recordsSynced()).toBeGreaterThan(users.length + channels.length);
    expect(await result.bytesSynced()).toBeGreaterThan(0);
    expect(await result.startTime()).toBeInstanceOf(Date);
    expect(Math.abs(Date.now() - (await result.startTime()).getTime())).toBeLessThan(120_000);
    expect(await result.streamNames()).toEqual(['users', 'channels', 'channel_messages']);
    expect(result.tableNamePrefix).toBe('chat_');
    expect(result.jobUrl).toBe(connection.jobHistoryUrl);
    await result.raiseFailureStatus({ refreshStatus: true });

    const attempts = await result.getAttempts();
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attemptNumber: 0, status: 'succeeded', recordsSynced: await result.recordsSynced() });
    expect(attempts[0]!.logLines.join('\n')).toContain('chat_channel_messages');

    const second = await connection.runSync({ wait: false });
    expect(await second.waitForCompletion({ pollInterval: 0.2, waitTimeout: 120 })).toBe(JobStatus.SUCCEEDED);
    expect((await connection.getPreviousSyncLogs()).map((job) => job.jobId)).toEqual([second.jobId, result.jobId]);
    expect((await connection.getPreviousSyncLogs({ fromTail: false, limit: 1 })).map((job) => job.jobId)).toEqual([result.jobId]);
    expect((await connection.getSyncResult())!.jobId).toBe(second.jobId);

    const catalog = await connection.getCatalogArtifact();
    const selected = catalog!.streams.filter((stream) => stream.config.selected).map((stream) => stream.stream.name);
    expect(selected.sort()).toEqual(['channel_messages', 'channels', 'users']);
    const state = await connection.getStateArtifacts();
    expect(state?.map((stream) => stream.streamDescriptor.name)).toContain('channel_messages');

    // The tables, read through the destination's database.
    try {
      expect(await result.getSqlTableName('users')).toBe('chat_users');
      const rows = await (await result.getDataset('users')).toArray();
      expect(rows).toHaveLength(users.length);
      expect(rows.map((row) => row.id).sort()).toEqual(users.map((user) => user.id).sort());
      const engine = await result.getSqlEngine();
      const table = await result.getSqlTable('channels');
      const channelRows = await table.select(['id', 'name']).execute();
      expect(channelRows.length).toBeGreaterThan(0);
      expect(engine).toBeDefined();
      expect(typeof (await result.getSqlDatabaseName())).toBe('string');
      expect(typeof (await result.getSqlSchemaName())).toBe('string');
      const cache = await result.getSqlCache();
      expect(cache.tableName('users')).toBe('chat_users');
      const streams = await result.streams();
      expect([...streams.keys()]).toEqual(['users', 'channels', 'channel_messages']);
      expect((await streams.get('channel_messages')!.toArray()).length).toBeGreaterThan(0);
    } finally {
      await result.close();
    }
  });

  it('changes the schedule, status and name, lists, and refuses what the server lacks', async () => {
    await connection.setSchedule('0 0 12 * * ?');
    expect((await connection.info()).schedule).toMatchObject({ scheduleType: 'cron', cronExpression: '0 0 12 * * ?' });
    await connection.setManualSchedule();
    expect((await connection.refresh()).schedule.scheduleType).toBe('manual');

    expect(await connection.isEnabled()).toBe(true);
    await connection.setEnabled(false);
    expect(await connection.isEnabled()).toBe(false);
    await connection.setEnabled(false);
    await expect(connection.setEnabled(false, { ignoreNoop: false })).rejects.toBeInstanceOf(NoopError);
    await connection.setEnabled(true);
    expect(await workspace.getConnection(connection.connectionId).isEnabled()).toBe(true);

    await connection.rename('renamed delete-me');
    expect(await workspace.getConnection(connection.connectionId).name()).toBe('renamed delete-me');
    expect((await workspace.listConnections({ name: 'renamed delete-me' })).map((c) => c.connectionId)).toEqual([connection.connectionId]);
    expect(await workspace.listSources({ nameFilter: (name) => name.includes('chat') })).toHaveLength(1);
    expect(await workspace.listDestinations({ name: 'nothing' })).toEqual([]);

    // Docker definitions: the connectors this server runs, each named by its image.
    const docker = await workspace.listCustomSourceDefinitions('docker');
    expect(docker.length).toBeGreaterThan(0);
    for (const item of docker) expect(item).toMatchObject({ definitionType: 'docker', dockerRepository: expect.any(String) });
    const manifestYaml = readFileSync(new URL('../docs/examples/declarative-source.yaml', import.meta.url), 'utf8');
    const definition = await workspace.publishCustomSourceDefinition('members', { manifestYaml });
    expect(definition).toMatchObject({ name: 'members', definitionType: 'yaml', version: 1 });
    await expect(workspace.publishCustomSourceDefinition('members', { manifestYaml })).rejects.toThrow(/already exists/);
    expect((await workspace.listCustomSourceDefinitions('yaml')).map((d) => d.definitionId)).toEqual([definition.definitionId]);
    expect((await workspace.getCustomSourceDefinition(definition.definitionId, 'yaml')).manifest).toMatchObject({ type: 'team-members' });
    await definition.permanentlyDelete();
    await expect(workspace.getCustomSourceDefinition(definition.definitionId, 'yaml')).rejects.toBeInstanceOf(MissingResourceError);
  });

  /** Every record of an entity as the chat connector lists it, in process: what a table must hold. */
  async function listed(entity: string, params: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    const runtime = fx.server.hosted.runtime;
    const execute = runtime.executor('chat', { credentials: { token: CHAT_TOKEN }, base_url: fx.chatSandbox.url }) as (
      request: unknown,
    ) => Promise<ExecuteResult>;
    const records: Record<string, unknown>[] = [];
    for await (const record of paginate(runtime.plugin('chat'), execute as never, { entity, action: 'list', params })) records.push(record);
    return records;
  }

  it.each(DESTINATION_TYPES)('syncs into %s and reads the tables back, typed, row for row', async (type) => {
    const target = await testDestination(type, workspaceDataDir(fx.dataDir, workspaceId));
    try {
      const source = await workspace.deploySource(`chat for ${type}`, slack());
      const destination = await workspace.deployDestination(`${type} deleteme`, target.configuration);
      const toTables = await workspace.deployConnection(`chat to ${type} deleteme`, {
        source,
        destination,
        selectedStreams: ['users', 'channels'],
        tablePrefix: 'e2e_',
      });
      const result = await toTables.runSync({ wait: true, waitTimeout: 120 });
      try {
        expect(await result.getSqlTableName('users')).toBe('e2e_users');
        // Every field the connector lists comes back with its type: booleans, numbers, nested objects.
        for (const [stream, params] of [
          ['users', { limit: 1000 }],
          ['channels', { limit: 1000, types: 'public_channel,private_channel,mpim,im' }],
        ] as const) {
          const expected = await listed(stream, params);
          const rows = await (await result.getDataset(stream)).toArray();
          expect(rows).toHaveLength(expected.length);
          const byId = new Map(rows.map((row) => [row.id, row]));
          for (const record of expected) {
            const row = byId.get(record.id)!;
            const comparable = Object.fromEntries(
              Object.keys(row)
                .filter((key) => key in record)
                .map((key) => [key, record[key]]),
            );
            expect({ id: record.id, ...row, _airbyte_raw_id: undefined, _airbyte_extracted_at: undefined, _airbyte_meta: undefined }).toMatchObject(comparable);
            expect(row._airbyte_meta).toMatchObject({ changes: [] });
          }
        }
      } finally {
        await result.close();
      }
      await toTables.permanentlyDelete({ cascadeDeleteSource: false, cascadeDeleteDestination: true });
      await source.rename(`chat for ${type} deleteme`);
      await source.permanentlyDelete();
    } finally {
      await target.drop();
    }
  });

  it.each(DESTINATION_TYPES)("writes into the connection's custom namespace in %s, and reads the tables back from there", async (type) => {
    const target = await testDestination(type, workspaceDataDir(fx.dataDir, workspaceId));
    try {
      const source = await workspace.deploySource(`chat deleteme for a namespace in ${type}`, slack());
      const destination = await workspace.deployDestination(`${type} namespace deleteme`, target.configuration);
      const connection = await workspace.deployConnection(`chat to a ${type} namespace deleteme`, { source, destination, selectedStreams: ['users'] });
      // The library has no namespace option (nor has PyAirbyte's): another client sets it through the API.
      await workspace.api.patch(
        `/connections/${connection.connectionId}`,
        { namespaceDefinition: 'custom_format', namespaceFormat: `${target.namespace}\${SOURCE_NAMESPACE}` },
        { resource: { type: 'connection', id: connection.connectionId } },
      );
      await connection.refresh();
      const result = await connection.runSync({ wait: true, waitTimeout: 120 });
      const users = fx.chatSandbox.data.users.length;
      try {
        if (type === 'sqlite') {
          // SQLite has no schemas: the tables stay in its file.
          expect(await target.rows('users')).toHaveLength(users);
        } else {
          expect(await result.getSqlSchemaName()).toBe(target.namespace);
          expect(await target.tables()).not.toContain('users');
          expect(await target.rows('users', target.namespace)).toHaveLength(users);
        }
        expect(await (await result.getDataset('users')).toArray()).toHaveLength(users);
      } finally {
        await result.close();
      }
      await connection.permanentlyDelete({ cascadeDeleteSource: true, cascadeDeleteDestination: true });
    } finally {
      await target.drop();
    }
  });

  it('deletes in safe mode, cascades included', async () => {
    const source = await connection.source();
    const destinationId = await connection.destinationId();
    // The source is not named for deletion: nothing is deleted.
    await expect(connection.permanentlyDelete({ cascadeDeleteSource: true, cascadeDeleteDestination: true })).rejects.toBeInstanceOf(InputError);
    expect(await connection.checkIsValid()).toBe(true);
    await connection.permanentlyDelete({ cascadeDeleteDestination: true });
    await expect(workspace.getConnection(connection.connectionId).checkIsValid()).rejects.toBeInstanceOf(MissingResourceError);
    await expect(workspace.getDestination(destinationId).info()).rejects.toBeInstanceOf(MissingResourceError);
    await expect(source.permanentlyDelete()).rejects.toBeInstanceOf(InputError);
    await source.rename('team chat DeleteMe');
    const destination = await workspace.deployDestination('second deleteme', { destinationType: 'sqlite' });
    const another = await workspace.deployConnection('another deleteme', { source: source.sourceId, destination, selectedStreams: ['users'] });
    await another.permanentlyDelete({ cascadeDeleteSource: true, cascadeDeleteDestination: true });
    expect(await workspace.listSources()).toEqual([]);
    expect(await workspace.listDestinations()).toEqual([]);
    expect(await workspace.listConnections()).toEqual([]);
  });
});

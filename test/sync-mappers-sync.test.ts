import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackSandbox } from '../connectors/chat/sandbox/index.ts';
import type { PlugboardRuntime } from '../index.ts';
import { paginate } from '../core/execution/paginate.ts';
import { DeploymentUpstreams } from '../core/hosted/deployment-upstreams.ts';
import { createDestination } from '../core/hosted/sync/destinations/create-destination.ts';
import type { SyncJob, SyncJobs } from '../core/hosted/sync/sync-jobs.ts';
import type { SyncStates } from '../core/hosted/sync/sync-states.ts';
import type { SelectedStream, SyncTarget } from '../core/hosted/sync/sync-target.ts';
import { SyncWorker } from '../core/hosted/sync/sync-worker.ts';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { type SyncEngineFixture, startSyncEngine } from './helpers/sync-engine-fixture.ts';
import { DESTINATION_TYPES, testDestination } from './helpers/sync-destinations.ts';
import { rsaDecrypt } from './helpers/rsa-decrypt.ts';

/**
 * A sync with selected fields and mappers into each destination: the tables hold only the selected
 * columns (with the key and cursor), the mapped ones under their new names, hashes node's crypto
 * agrees with, values the private key decrypts, and only the rows the filter keeps; bytesSynced
 * counts the records as the destination got them.
 */

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const STREAMS: SelectedStream[] = [
  {
    name: 'users',
    syncMode: 'full_refresh_overwrite',
    selectedFields: ['name', 'real_name', 'is_bot'],
    mappers: [
      { id: 'a', type: 'hashing', mapperConfiguration: { targetField: 'id', method: 'SHA-256', fieldNameSuffix: '_hashed' } },
      { id: 'b', type: 'field-renaming', mapperConfiguration: { originalFieldName: 'real_name', newFieldName: 'full_name' } },
      {
        id: 'c',
        type: 'row-filtering',
        mapperConfiguration: { conditions: { type: 'NOT', conditions: [{ type: 'EQUAL', fieldName: 'is_bot', comparisonValue: 'true' }] } },
      },
      { id: 'd', type: 'field-filtering', mapperConfiguration: { targetField: 'is_bot' } },
    ],
  },
  {
    name: 'channel_messages',
    syncMode: 'incremental_deduped_history',
    selectedFields: ['channel_id', 'ts', 'text'],
    mappers: [
      {
        id: 'e',
        type: 'encryption',
        mapperConfiguration: {
          algorithm: 'RSA',
          targetField: 'text',
          fieldNameSuffix: '_encrypted',
          publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('hex'),
        },
      },
    ],
  },
];

describe.each(DESTINATION_TYPES)('a sync with selected fields and mappers into %s', (destinationType) => {
  let sandbox: SlackSandbox;
  let runtime: PlugboardRuntime;
  let dataDir: string;
  let jobs: SyncJobs;
  let states: SyncStates;

  let fixture: SyncEngineFixture | undefined;

  beforeAll(async () => {
    fixture = await startSyncEngine({ users: 30, channels: 4, messagesPerChannel: 12 }, 'mappers');
    ({ sandbox, runtime, dataDir, jobs, states } = fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  async function runJob(target: SyncTarget): Promise<SyncJob> {
    const job = await jobs.create(target.connectionId, target.workspaceId, 'sync');
    const worker = new SyncWorker({
      jobs,
      states,
      runtime,
      upstreams: new DeploymentUpstreams({ chat: sandbox.url }),
      openDestination: (given) => createDestination(given.destinationType, given.configuration, { dataDir }),
      target: async (id) => (id === target.connectionId ? target : undefined),
      pollMs: 25,
      retryDelayMs: 20,
      leaseMs: 10_000,
    });
    worker.start();
    try {
      for (let i = 0; i < 1200; i++) {
        const current = (await jobs.get(job.id))!;
        if (['succeeded', 'failed', 'cancelled'].includes(current.status)) return current;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`job ${job.id} did not settle`);
    } finally {
      await worker.stop();
    }
  }

  /** Every record of a stream as the connector lists it. */
  async function listed(entity: string, params: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    const execute = runtime.executor('chat', { credentials: { token: CHAT_TOKEN }, base_url: sandbox.url });
    const out: Record<string, unknown>[] = [];
    for await (const record of paginate(runtime.plugin('chat'), execute as never, { entity, action: 'list', params }))
      out.push(record as Record<string, unknown>);
    return out;
  }

  it('writes only the selected and mapped columns, the rows the filter keeps, and counts their bytes', async () => {
    const destination = await testDestination(destinationType, dataDir);
    const target: SyncTarget = {
      connectionId: '00000000-0000-4000-8000-00000000a001',
      workspaceId: '00000000-0000-4000-8000-000000000000',
      prefix: 'm_',
      streams: STREAMS,
      source: { sourceId: 'source', connectorType: 'chat', credentials: { token: CHAT_TOKEN }, settings: {} },
      destination: { destinationId: 'destination', destinationType, configuration: destination.configuration },
    };
    const job = await runJob(target);
    expect(job.status, JSON.stringify(await jobs.attempts(job.id))).toBe('succeeded');

    const users = await listed('users', { limit: 1000 });
    const humans = users.filter((user) => user.is_bot !== true);
    expect(humans.length).toBeLessThan(users.length);
    const userRows = await destination.rows('m_users');
    const byHash = new Map(userRows.map((row) => [row.id_hashed, row]));
    expect(Object.keys(userRows[0]!).sort()).toEqual(['_airbyte_extracted_at', '_airbyte_meta', '_airbyte_raw_id', 'full_name', 'id_hashed', 'name'].sort());
    expect(userRows.length).toBe(humans.length);
    for (const user of humans) expect(byHash.get(sha256(String(user.id)))).toMatchObject({ name: user.name, full_name: user.real_name ?? null });

    const messageRows = await destination.rows('m_channel_messages');
    expect(Object.keys(messageRows[0]!).sort()).toEqual(
      ['_airbyte_extracted_at', '_airbyte_meta', '_airbyte_raw_id', 'channel_id', 'text_encrypted', 'ts'].sort(),
    );
    const channels = (await listed('channels', { limit: 1000, types: 'public_channel,private_channel,mpim,im' })).filter(
      (c) => c.is_member === true || c.is_im === true || c.is_mpim === true,
    );
    const texts = new Map<string, unknown>();
    for (const channel of channels) {
      for (const message of await listed('channel_messages', { channel: channel.id, limit: 999 })) texts.set(`${channel.id}:${message.ts}`, message.text);
    }
    expect(messageRows.length).toBe(texts.size);
    for (const row of messageRows) expect(rsaDecrypt(privateKey, String(row.text_encrypted))).toBe(texts.get(`${row.channel_id}:${row.ts}`));

    // bytesSynced: each record as the destination got it (mapped), as JSON.
    const userBytes = humans.reduce(
      (sum, user) => sum + Buffer.byteLength(JSON.stringify({ name: user.name, full_name: user.real_name, id_hashed: sha256(String(user.id)) })),
      0,
    );
    expect(job.rows_synced).toBe(userRows.length + messageRows.length);
    expect(job.bytes_synced).toBeGreaterThan(userBytes);
    await destination.drop();
  });

  it("notes each value a mapper left NULL in its row's _airbyte_meta, as Airbyte's mappers do", async () => {
    const destination = await testDestination(destinationType, dataDir);
    const key = randomBytes(16);
    // CBC without padding encrypts whole blocks only: America/New_York is one, another time zone is left NULL.
    const aes = { algorithm: 'AES', targetField: 'tz', fieldNameSuffix: '_enc', key: key.toString('hex'), mode: 'CBC', padding: 'NoPadding' };
    const target: SyncTarget = {
      connectionId: '00000000-0000-4000-8000-00000000a002',
      workspaceId: '00000000-0000-4000-8000-000000000000',
      prefix: 'meta_',
      streams: [{ name: 'users', syncMode: 'full_refresh_overwrite', mappers: [{ id: 'f', type: 'encryption', mapperConfiguration: aes }] }],
      source: { sourceId: 'source', connectorType: 'chat', credentials: { token: CHAT_TOKEN }, settings: {} },
      destination: { destinationId: 'destination', destinationType, configuration: destination.configuration },
    };
    const job = await runJob(target);
    expect(job.status, JSON.stringify(await jobs.attempts(job.id))).toBe('succeeded');
    const rows = await destination.rows('meta_users');
    const metaOf = (row: Record<string, unknown>) => (typeof row._airbyte_meta === 'string' ? JSON.parse(row._airbyte_meta) : row._airbyte_meta);
    const nulled = rows.filter((row) => row.tz_enc === null);
    expect(nulled.length).toBeGreaterThan(0);
    expect(nulled.length).toBeLessThan(rows.length);
    for (const row of nulled) {
      expect(metaOf(row)).toEqual({ changes: [{ field: 'tz_enc', change: 'NULLED', reason: 'PLATFORM_SERIALIZATION_ERROR' }], sync_id: job.id });
    }
    for (const row of rows.filter((candidate) => candidate.tz_enc !== null)) expect(metaOf(row).changes).toEqual([]);
    await destination.drop();
  });
});

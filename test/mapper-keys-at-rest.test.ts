import { createDecipheriv } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceDataDir } from '../core/hosted/sync/destinations/create-destination.ts';
import { slackSourceConfiguration } from './helpers/chat-fixture.ts';
import { BACKENDS, bearer, startHostedFixture, type HostedFixture } from './helpers/hosted-fixture.ts';
import { expectNowhereInClear, plainPublicApi, publicAccessToken } from './helpers/public-api-calls.ts';
import { testDestination, type TestDestination } from './helpers/sync-destinations.ts';

/**
 * An encryption mapper's AES key at rest: the connection's row holds it sealed, answers mask it, a
 * masked key sent back keeps it, a sync still encrypts with it, and a row written before keys were
 * sealed still syncs and is sealed at its next write. The key is never in a row, a log or an answer.
 */

const KEY = '8c1f0e6a9b2d4c7e5f3a1b0c9d8e7f60';
const MASK = '**********';

function aesCbcDecrypt(hex: string): string {
  const data = Buffer.from(hex, 'hex');
  const decipher = createDecipheriv('aes-128-cbc', Buffer.from(KEY, 'hex'), data.subarray(0, 16));
  return Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]).toString('utf8');
}

describe.each(BACKENDS)('mapper keys at rest on %s', (backend) => {
  let fx: HostedFixture;
  let api: Awaited<ReturnType<typeof plainPublicApi>>;
  let workspaceId: string;
  let sourceId: string;
  const bodies: string[] = [];
  const destinations: TestDestination[] = [];
  const aes = { algorithm: 'AES', targetField: 'name', fieldNameSuffix: '_enc', key: KEY, mode: 'CBC', padding: 'PKCS5Padding' };

  beforeAll(async () => {
    fx = await startHostedFixture(backend);
    fx.http = fx.http.extend({
      hooks: {
        afterResponse: [
          (response) => {
            bodies.push(String(response.body));
            return response;
          },
        ],
      },
    });
    api = await plainPublicApi(fx);
    workspaceId = (await api.call('post', 'v1/workspaces', { name: 'mapper-keys-ws' })).workspaceId;
    sourceId = (await api.call('post', 'v1/sources', { name: 'team slack', workspaceId, configuration: slackSourceConfiguration() })).sourceId;
  });
  afterAll(async () => {
    await fx?.close();
    for (const destination of destinations) await destination.drop();
  });

  async function connection(): Promise<{ connectionId: string; destination: TestDestination; answer: Record<string, any> }> {
    const destination = await testDestination('sqlite', workspaceDataDir(fx.dataDir, workspaceId));
    destinations.push(destination);
    const { destinationId } = await api.call('post', 'v1/destinations', { name: 'sqlite', workspaceId, configuration: destination.configuration });
    const streams = [{ name: 'users', syncMode: 'full_refresh_overwrite', mappers: [{ type: 'encryption', mapperConfiguration: aes }] }];
    const answer = await api.call('post', 'v1/connections', { sourceId, destinationId, prefix: 'k_', configurations: { streams } });
    return { connectionId: answer.connectionId, destination, answer };
  }

  const storedStreams = async (connectionId: string) =>
    (await fx.server.hosted.cloudDb.get<{ streams: string }>('SELECT streams FROM cloud_connections WHERE id = ?', [connectionId]))!.streams;
  const storedKey = async (connectionId: string) => JSON.parse(await storedStreams(connectionId))[0].mappers[0].mapperConfiguration.key;

  /** Syncs the connection; every user's name in the table, decrypted with the key. */
  async function syncedNames(connectionId: string, destination: TestDestination): Promise<string[]> {
    const job = await api.sync(connectionId);
    expect(job.status).toBe('succeeded');
    return (await destination.rows('k_users')).map((row) => aesCbcDecrypt(String(row.name_enc))).sort();
  }
  const userNames = () => fx.chatSandbox.data.users.map((user) => user.name).sort();

  it('seals the key in the row, masks it in answers, keeps it when the answer is sent back, and syncs with it', async () => {
    const { connectionId, destination, answer } = await connection();
    expect(answer.configurations.streams[0].mappers[0].mapperConfiguration).toEqual({ ...aes, key: MASK });
    const sealed = await storedKey(connectionId);
    expect(sealed).toEqual({ key_id: expect.any(String), ciphertext: expect.any(String) });
    expect(await storedStreams(connectionId)).not.toContain(KEY);

    const back = await api.call('patch', `v1/connections/${connectionId}`, { configurations: answer.configurations });
    expect(back.configurations).toEqual(answer.configurations);
    // Kept as it was sealed: the key was not opened to be sent back.
    expect(await storedKey(connectionId)).toEqual(sealed);

    expect(await syncedNames(connectionId, destination)).toEqual(userNames());
    const again = await api.call('get', `v1/connections/${connectionId}`);
    expect(again.configurations.streams[0].mappers[0].mapperConfiguration.key).toBe(MASK);
    await expectNowhereInClear(fx, [KEY]);
    expect(bodies.filter((body) => body.includes(KEY))).toEqual([]);
  });

  it('a masked key whose mapper has no stored key is refused without the key in the error', async () => {
    const { connectionId, answer } = await connection();
    const [stream] = answer.configurations.streams;
    const unknown = { ...stream, mappers: [{ ...stream.mappers[0], id: '00000000-0000-4000-8000-0000000000aa' }] };
    const refused = await fx.http.patch(`v1/connections/${connectionId}`, {
      headers: bearer(await publicAccessToken(fx)),
      json: { configurations: { streams: [unknown] } },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('value_error.masked_key');
    expect(refused.body).not.toContain(KEY);
  });

  it('a row holding the key in clear (written before keys were sealed) still syncs, and is sealed at its next write', async () => {
    const { connectionId, destination } = await connection();
    const inClear = JSON.parse(await storedStreams(connectionId));
    inClear[0].mappers[0].mapperConfiguration.key = KEY;
    await fx.server.hosted.cloudDb.run('UPDATE cloud_connections SET streams = ? WHERE id = ?', [JSON.stringify(inClear), connectionId]);

    const read = await api.call('get', `v1/connections/${connectionId}`);
    expect(read.configurations.streams[0].mappers[0].mapperConfiguration.key).toBe(MASK);
    expect(await syncedNames(connectionId, destination)).toEqual(userNames());

    // A write that does not touch the streams seals it too.
    await api.call('patch', `v1/connections/${connectionId}`, { name: 'renamed' });
    expect(await storedKey(connectionId)).toEqual({ key_id: expect.any(String), ciphertext: expect.any(String) });
    expect(await storedStreams(connectionId)).not.toContain(KEY);
    expect(await syncedNames(connectionId, destination)).toEqual(userNames());
    expect(fx.logs.join('\n')).not.toContain(KEY);
    expect(bodies.filter((body) => body.includes(KEY))).toEqual([]);
  });
});

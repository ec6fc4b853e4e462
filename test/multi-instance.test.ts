/**
 * Several server instances on one database, as separate processes (`npm start`): starting together on
 * an empty database, and refusing to start with data keys that would make them fail requests later.
 */
import { randomBytes } from 'node:crypto';
import got from 'got';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { TokenService } from '../core/hosted/token-service.ts';
import { DataKeyring } from '../core/security/data-keyring.ts';
import { BACKENDS, createTestDatabase, type Backend } from './helpers/hosted-fixture.ts';
import { startServerProcess, type ServerProcess } from './helpers/server-process.ts';

const keysOf = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const http = got.extend({ throwHttpErrors: false, retry: { limit: 0 } });

describe.each(BACKENDS)('instances sharing %s', (backend: Backend) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function database() {
    const db = await createTestDatabase(backend);
    cleanups.push(() => db.drop());
    return db;
  }

  async function start(env: Record<string, string>): Promise<ServerProcess> {
    const instance = await startServerProcess(env);
    cleanups.push(() => instance.stop());
    return instance;
  }

  async function operatorToken(url: string, credentials: { client_id: string; client_secret: string }) {
    const response = await http.post(`${url}/api/v1/account/applications/token`, { json: credentials });
    expect(response.statusCode, response.body).toBe(200);
    return (JSON.parse(response.body) as { access_token: string }).access_token;
  }

  it('two starting together on an empty database: exactly one creates the first application, and both serve it', async () => {
    const db = await database();
    // SQLite instances share the data directory, so also its generated key file; PostgreSQL ones need the variable.
    const env = { ...db.env, ...(backend === 'postgres' ? { PLUGBOARD_DATA_KEYS: keysOf('shared') } : {}) };
    const instances = await Promise.all([start(env), start(env)]);
    for (const instance of instances) expect(instance.url, instance.output.stderr).not.toBeNull();
    const printed = instances.filter((instance) => instance.firstApplication !== null);
    expect(printed).toHaveLength(1);
    const credentials = printed[0]!.firstApplication!;
    // One application, and each instance signs tokens the other accepts.
    const tokens = await Promise.all(instances.map((instance) => operatorToken(instance.url!, credentials)));
    for (const [index, instance] of instances.entries()) {
      const other = tokens[1 - index]!;
      const scoped = await http.post(`${instance.url}/api/v1/embedded/scoped-token`, {
        headers: { authorization: `Bearer ${other}` },
        json: { workspace_name: 'both' },
      });
      expect(scoped.statusCode, scoped.body).toBe(200);
    }
  });

  it('two starting together on an empty database agree on one token-signing key, and both publish it', async () => {
    const db = await database();
    const env = { ...db.env, ...(backend === 'postgres' ? { PLUGBOARD_DATA_KEYS: keysOf('shared') } : {}) };
    const instances = await Promise.all([start(env), start(env)]);
    for (const instance of instances) expect(instance.url, instance.output.stderr).not.toBeNull();
    const store = await db.openStore();
    const stored = await store.listSigningKeys().finally(() => store.close());
    expect(stored).toHaveLength(1);
    for (const instance of instances) {
      const jwks = JSON.parse((await http.get(`${instance.url}/.well-known/jwks.json`)).body) as { keys: Array<{ kid: string }> };
      expect(jwks.keys.map((key) => key.kid)).toEqual([stored[0]!.kid]);
    }
  });

  it('token services starting together on an empty store (in one process, so their steps interleave) make one key', async () => {
    const db = await database();
    const keyring = new DataKeyring([{ id: 'k1', key: randomBytes(32) }]);
    const stores = await Promise.all([db.openStore(), db.openStore(), db.openStore()]);
    cleanups.push(async () => {
      for (const store of stores) await store.close();
    });
    const services = stores.map((store) => new TokenService(store, keyring, 'http://plugboard.test'));
    await Promise.all(services.map((service) => service.start()));
    const stored = await stores[0]!.listSigningKeys();
    expect(stored).toHaveLength(1);
    for (const service of services) expect((await service.jwks()).keys.map((key) => key.kid)).toEqual([stored[0]!.kid]);
  });

  it('an instance whose data keys do not open the active signing key refuses to start, and says why without a secret', async () => {
    const db = await database();
    const first = await start({ ...db.env, PLUGBOARD_DATA_KEYS: keysOf('k1') });
    expect(first.url, first.output.stderr).not.toBeNull();
    const otherKeys = keysOf('k2');
    const refused = await start({ ...db.env, PLUGBOARD_DATA_KEYS: otherKeys });
    expect(refused.url).toBeNull();
    expect(refused.exitCode).toBe(1);
    expect(refused.output.stderr).toMatch(
      /^Plugboard did not start: the active token-signing key \(kid [\w-]+\) is encrypted with data key "k1", which is not among this instance's data keys/,
    );
    expect(refused.output.stderr).toContain('PLUGBOARD_DATA_KEYS');
    expect(refused.output.stderr).not.toContain(otherKeys.split(':')[1]);
    expect(refused.output.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });

  it.runIf(backend === 'postgres')('without PLUGBOARD_DATA_KEYS, an instance on PostgreSQL refuses to start before touching the database', async () => {
    const db = await database();
    const refused = await start(db.env);
    expect(refused.url).toBeNull();
    expect(refused.exitCode).toBe(1);
    expect(refused.output.stderr).toMatch(/^Plugboard did not start: DATABASE_URL is set, so PLUGBOARD_DATA_KEYS must be set too/);
    const client = new pg.Client({ connectionString: db.databaseUrl });
    await client.connect();
    try {
      const tables = await client.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [db.schema]);
      expect(tables.rows).toEqual([]);
    } finally {
      await client.end();
    }
  });
});

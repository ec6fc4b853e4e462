/**
 * Application credentials: `npm run admin -- create-application` finds or creates the organization by
 * name, so an organization can get a second application; runs made at once agree on one organization.
 */
import { randomBytes, scrypt } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Applications } from '../core/hosted/applications.ts';
import {
  addressKey,
  CredentialAttemptLimits,
  DEFAULT_CREDENTIAL_ATTEMPT_LIMITS,
  type CredentialAttemptLimitOptions,
} from '../core/hosted/credential-attempts.ts';
import { ClientSecrets } from '../core/security/client-secrets.ts';
import { loadDataKeyring } from '../core/security/data-keyring.ts';
import type { Store } from '../core/stores/index.ts';
import { BACKENDS, createTestDatabase, DATA_KEYS, type Backend, type TestDatabase } from './helpers/hosted-fixture.ts';
import { runScript } from './helpers/server-process.ts';

describe.each(BACKENDS)('applications on %s', (backend: Backend) => {
  let database: TestDatabase;
  let store: Store;
  let applications: Applications;
  const ADDRESS = '192.0.2.1';

  /** The applications of a store, keyed as the admin CLI's are (PLUGBOARD_DATA_KEYS = DATA_KEYS). */
  const applicationsOn = (on: Store, limits: CredentialAttemptLimitOptions = DEFAULT_CREDENTIAL_ATTEMPT_LIMITS) =>
    new Applications(
      on,
      new ClientSecrets(loadDataKeyring({ PLUGBOARD_DATA_KEYS: DATA_KEYS }, database.dataDir, { shared: false })),
      new CredentialAttemptLimits(on, limits),
    );

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    store = await database.openStore();
    applications = applicationsOn(store);
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it('the first start of an empty install makes one application; later starts none', async () => {
    const first = await applications.createFirst();
    expect(first).not.toBeNull();
    expect(await applications.createFirst()).toBeNull();
    expect(await store.countApplications()).toBe(1);
    expect((await store.getOrganization(first!.organization_id))?.name).toBe('local');
  });

  it('adds an application to the organization of that name, and creates one for a new name', async () => {
    const first = await applications.create('Acme');
    const second = await applications.create('Acme');
    const other = await applications.create('Globex');
    expect(second.organization_id).toBe(first.organization_id);
    expect(second.client_id).not.toBe(first.client_id);
    expect(other.organization_id).not.toBe(first.organization_id);
    for (const credentials of [first, second]) {
      expect((await applications.authenticate(credentials.client_id, credentials.client_secret, ADDRESS)).organization_id).toBe(first.organization_id);
    }
  });

  it('runs at once, from several store instances, agree on one organization', async () => {
    const others = backend === 'postgres' ? await Promise.all([database.openStore(), database.openStore()]) : [];
    try {
      const made = await Promise.all([store, ...others, store].map((s) => applicationsOn(s).create('Initech')));
      expect(new Set(made.map((m) => m.organization_id)).size).toBe(1);
      expect(new Set(made.map((m) => m.client_id)).size).toBe(made.length);
    } finally {
      for (const other of others) await other.close();
    }
  });

  it('the admin CLI prints the credentials as JSON and reuses the organization', async () => {
    const env = { ...database.env, PLUGBOARD_DATA_KEYS: DATA_KEYS };
    const runs = await Promise.all([1, 2].map(() => runScript(['scripts/admin.ts', 'create-application', '--organization', 'Umbrella'], env)));
    const printed = runs.map((run) => {
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as Record<string, string>;
    });
    for (const credentials of printed) expect(Object.keys(credentials)).toEqual(['organization_id', 'client_id', 'client_secret']);
    expect(printed[0]!.organization_id).toBe(printed[1]!.organization_id);
    expect(printed[0]!.client_id).not.toBe(printed[1]!.client_id);
    expect((await store.findOrganizationByName('Umbrella'))?.id).toBe(printed[0]!.organization_id);
    await expect(applications.authenticate(printed[1]!.client_id!, printed[1]!.client_secret!, ADDRESS)).resolves.toMatchObject({
      organization_id: printed[0]!.organization_id,
    });
  });

  it('stores a keyed hash of the secret, never the secret, and checks it without a slow hash', async () => {
    const made = await applications.create('Hashed');
    const stored = (await store.findApplicationByClientId(made.client_id))!;
    expect(stored.secret_hash).toMatch(/^hmac-sha256\$t1\$[A-Za-z0-9+/]+=*$/);
    expect(stored.secret_hash).not.toContain(made.client_secret);
    await expect(applications.authenticate(made.client_id, `${made.client_secret}x`, '192.0.2.10')).rejects.toMatchObject({
      status: 401,
      detail: 'Invalid authentication credentials',
    });
    // An unknown client id gets the same answer as a wrong secret.
    await expect(applications.authenticate('no-such-client', made.client_secret, '192.0.2.10')).rejects.toMatchObject({
      status: 401,
      detail: 'Invalid authentication credentials',
    });
  });

  it('a secret hashed by an older install (scrypt) still works, and is re-hashed on its first successful use', async () => {
    const made = await applications.create('Legacy');
    const salt = randomBytes(16);
    const legacy = `scrypt$${salt.toString('base64')}$${((await promisify(scrypt)(made.client_secret, salt, 32)) as Buffer).toString('base64')}`;
    const { id } = (await store.findApplicationByClientId(made.client_id))!;
    await store.updateApplicationSecretHash(id, legacy);
    await expect(applications.authenticate(made.client_id, 'wrong', '192.0.2.11')).rejects.toMatchObject({ status: 401 });
    expect((await store.findApplicationByClientId(made.client_id))!.secret_hash).toBe(legacy);
    await expect(applications.authenticate(made.client_id, made.client_secret, '192.0.2.11')).resolves.toMatchObject({ id });
    expect((await store.findApplicationByClientId(made.client_id))!.secret_hash).toMatch(/^hmac-sha256\$/);
    await expect(applications.authenticate(made.client_id, made.client_secret, '192.0.2.11')).resolves.toMatchObject({ id });
  });

  it('failed attempts are limited per address and per client id (429 with a retry hint), counted by every store instance, and never lock out the right secret', async () => {
    const limits = { failuresPerAddress: 3, failuresPerClient: 5, windowSeconds: 60 };
    const others = backend === 'postgres' ? [await database.openStore()] : [];
    try {
      // On PostgreSQL the failures go through two store instances (two servers): they count together.
      const instances = [store, ...others].map((on) => applicationsOn(on, limits));
      const made = await applications.create('Limited');
      const attempt = (secret: string, address: string, index = 0) => instances[index % instances.length]!.authenticate(made.client_id, secret, address);
      for (let i = 0; i < 3; i++) await expect(attempt('wrong', '198.51.100.1', i)).rejects.toMatchObject({ status: 401 });
      const refused = await attempt('wrong', '198.51.100.1', 3).catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 429, error_code: 'too_many_attempts', retryAfterSeconds: expect.any(Number) });
      expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
      expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(60);
      // The address is refused before its credentials are looked at, even the right ones.
      await expect(attempt(made.client_secret, '198.51.100.1', 4)).rejects.toMatchObject({ status: 429 });
      // The client id is over its own limit after failures from other addresses: failures answer 429, the right secret still gets in.
      for (let i = 0; i < 3; i++) await expect(attempt('wrong', `198.51.100.${10 + i}`, i)).rejects.toMatchObject({ status: i < 1 ? 401 : 429 });
      await expect(attempt(made.client_secret, '198.51.100.99')).resolves.toMatchObject({ client_id: made.client_id });
      // Another client id is not affected by this one's failures.
      const other = await applications.create('Unaffected');
      await expect(instances[0]!.authenticate(other.client_id, other.client_secret, '198.51.100.50')).resolves.toMatchObject({ client_id: other.client_id });
    } finally {
      for (const other of others) await other.close();
    }
  });

  it('a hash under a data key that no longer encrypts is re-hashed under the active one on its next success', async () => {
    const made = await applications.create('Rotated');
    const rotated = `k2:${randomBytes(32).toString('base64')},${DATA_KEYS}`;
    const secrets = new ClientSecrets(loadDataKeyring({ PLUGBOARD_DATA_KEYS: rotated }, database.dataDir, { shared: false }));
    const afterRotation = new Applications(store, secrets, new CredentialAttemptLimits(store));
    await expect(afterRotation.authenticate(made.client_id, made.client_secret, '192.0.2.20')).resolves.toMatchObject({ client_id: made.client_id });
    expect((await store.findApplicationByClientId(made.client_id))!.secret_hash).toMatch(/^hmac-sha256\$k2\$/);
  });

  it('data-key ids are plain words: one holding a separator of the stored formats ($, :) is refused at start', () => {
    const key = randomBytes(32).toString('base64');
    expect(() => loadDataKeyring({ PLUGBOARD_DATA_KEYS: `prod$2024:${key}` }, database.dataDir, { shared: false })).toThrow(/a key id is 1-64 letters/);
    expect(() => loadDataKeyring({ PLUGBOARD_DATA_KEYS: `prod-2024.1:${key}` }, database.dataDir, { shared: false })).not.toThrow();
  });

  it('an IPv6 caller counts per /64 (a host may hold all of it), an IPv4-mapped one as its IPv4 address', async () => {
    const limited = applicationsOn(store, { failuresPerAddress: 2, failuresPerClient: 100, windowSeconds: 60 });
    const made = await applications.create('Six');
    for (const address of ['2001:db8:1:2::a', '2001:db8:1:2:ffff::b'])
      await expect(limited.authenticate(made.client_id, 'wrong', address)).rejects.toMatchObject({ status: 401 });
    await expect(limited.authenticate(made.client_id, 'wrong', '2001:DB8:1:2:0:0:0:c')).rejects.toMatchObject({ status: 429 });
    await expect(limited.authenticate(made.client_id, made.client_secret, '2001:db8:1:3::a')).resolves.toMatchObject({ client_id: made.client_id });
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it('the admin CLI refuses an empty organization name', async () => {
    const run = await runScript(['scripts/admin.ts', 'create-application', '--organization', ' '], { ...database.env, PLUGBOARD_DATA_KEYS: DATA_KEYS });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('--organization must name an organization');
  });

  it.runIf(backend === 'postgres')('the admin CLI on PostgreSQL without PLUGBOARD_DATA_KEYS says what is missing', async () => {
    const run = await runScript(['scripts/admin.ts', 'create-application', '--organization', 'Umbrella'], database.env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^admin: DATABASE_URL is set, so PLUGBOARD_DATA_KEYS must be set too/);
    expect(run.stdout).toBe('');
  });
});

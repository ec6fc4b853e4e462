/**
 * Application credentials: `npm run admin -- create-application` finds or creates the organization by
 * name, so an organization can get a second application; runs made at once agree on one organization.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateApplication, createApplication, createFirstApplication } from '../core/hosted/applications.ts';
import type { Store } from '../core/stores/index.ts';
import { BACKENDS, createTestDatabase, DATA_KEYS, type Backend, type TestDatabase } from './helpers/hosted-fixture.ts';
import { runScript } from './helpers/server-process.ts';

describe.each(BACKENDS)('applications on %s', (backend: Backend) => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    store = await database.openStore();
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it('the first start of an empty install makes one application; later starts none', async () => {
    const first = await createFirstApplication(store);
    expect(first).not.toBeNull();
    expect(await createFirstApplication(store)).toBeNull();
    expect(await store.countApplications()).toBe(1);
    expect((await store.getOrganization(first!.organization_id))?.name).toBe('local');
  });

  it('adds an application to the organization of that name, and creates one for a new name', async () => {
    const first = await createApplication(store, 'Acme');
    const second = await createApplication(store, 'Acme');
    const other = await createApplication(store, 'Globex');
    expect(second.organization_id).toBe(first.organization_id);
    expect(second.client_id).not.toBe(first.client_id);
    expect(other.organization_id).not.toBe(first.organization_id);
    for (const credentials of [first, second]) {
      expect((await authenticateApplication(store, credentials.client_id, credentials.client_secret)).organization_id).toBe(first.organization_id);
    }
  });

  it('runs at once, from several store instances, agree on one organization', async () => {
    const others = backend === 'postgres' ? await Promise.all([database.openStore(), database.openStore()]) : [];
    try {
      const made = await Promise.all([store, ...others, store].map((s) => createApplication(s, 'Initech')));
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
    await expect(authenticateApplication(store, printed[1]!.client_id!, printed[1]!.client_secret!)).resolves.toMatchObject({ organization_id: printed[0]!.organization_id });
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

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store, StoredConnector } from '../core/stores/index.ts';
import { BACKENDS, createTestDatabase, type TestDatabase } from './helpers/hosted-fixture.ts';

const now = () => new Date().toISOString();

describe.each(BACKENDS)('store on %s', (backend) => {
  let database: TestDatabase;
  let store: Store;
  const org = randomUUID();

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    // Two instances starting at once both migrate; the advisory lock makes the second wait, then find
    // nothing to do. (SQLite's equivalent is two processes and busy_timeout: one process holding two
    // connections to one file would block its own thread.)
    const opened =
      backend === 'postgres' ? await Promise.all([database.openStore(), database.openStore()]) : [await database.openStore(), await database.openStore()];
    await opened[1]!.close();
    store = opened[0]!;
    await store.migrate();
    await store.createOrganization({ id: org, name: 'Acme', created_at: now() });
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it('keeps organizations and applications, with unique client ids', async () => {
    expect(await store.getOrganization(org)).toMatchObject({ id: org, name: 'Acme' });
    expect(await store.getOrganization(randomUUID())).toBeNull();
    const app = { id: randomUUID(), organization_id: org, client_id: `client-${randomUUID()}`, secret_hash: 'scrypt$a$b', created_at: now() };
    await store.createApplication(app);
    expect(await store.findApplicationByClientId(app.client_id)).toEqual(app);
    expect(await store.findApplicationByClientId('nobody')).toBeNull();
    await expect(store.createApplication({ ...app, id: randomUUID() })).rejects.toThrow();
    expect(await store.countApplications()).toBe(1);
  });

  it('finds the oldest organization of a name', async () => {
    await store.createOrganization({ id: randomUUID(), name: 'Twice', created_at: '2024-02-01T00:00:00.000Z' });
    const oldest = { id: randomUUID(), name: 'Twice', created_at: '2024-01-01T00:00:00.000Z' };
    await store.createOrganization(oldest);
    expect(await store.findOrganizationByName('Twice')).toEqual(oldest);
    expect(await store.findOrganizationByName('twice')).toBeNull();
  });

  it('runs work in one transaction: kept when it succeeds, undone when it throws', async () => {
    const kept = { id: randomUUID(), name: 'Kept', created_at: now() };
    const undone = { id: randomUUID(), name: 'Undone', created_at: now() };
    expect(
      await store.transaction(async (tx) => {
        await tx.createOrganization(kept);
        return 'done';
      }),
    ).toBe('done');
    await expect(
      store.transaction(async (tx) => {
        await tx.createOrganization(undone);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await store.getOrganization(kept.id)).toEqual(kept);
    expect(await store.getOrganization(undone.id)).toBeNull();
  });

  it.runIf(backend === 'postgres')('serialises transactions of one lock key across store instances (count, then create)', async () => {
    const others = await Promise.all([database.openStore(), database.openStore(), database.openStore()]);
    try {
      // Each checks for the name, then creates it: without the lock, several would find nothing and create.
      const findOrCreate = (s: Store) =>
        s.transaction(async (tx) => {
          if (await tx.findOrganizationByName('Locked')) return false;
          await new Promise((resolve) => setTimeout(resolve, 20));
          await tx.createOrganization({ id: randomUUID(), name: 'Locked', created_at: now() });
          return true;
        }, 4242);
      const created = await Promise.all([store, ...others].map(findOrCreate));
      expect(created.filter(Boolean)).toHaveLength(1);
    } finally {
      for (const other of others) await other.close();
    }
  });

  it('keeps signing keys newest first, JSON and ciphertext intact, and retires them', async () => {
    const key = (kid: string, created_at: string) => ({
      kid,
      alg: 'ES256' as const,
      public_jwk: { kty: 'EC', crv: 'P-256', x: 'x', y: 'y' },
      private_jwk: { key_id: 'k1', ciphertext: 'c2VjcmV0' },
      created_at,
      retired_at: null,
    });
    await store.insertSigningKey(key('old', '2024-01-01T00:00:00.000Z'));
    await store.insertSigningKey(key('new', '2024-06-01T00:00:00.000Z'));
    await store.retireSigningKey('old', '2024-06-01T00:00:01.000Z');
    const keys = await store.listSigningKeys();
    expect(keys.map((k) => k.kid)).toEqual(['new', 'old']);
    expect(keys[1]).toEqual({ ...key('old', '2024-01-01T00:00:00.000Z'), retired_at: '2024-06-01T00:00:01.000Z' });
  });

  it('resolves concurrent workspace creation to one row, even from two store instances', async () => {
    const other = await database.openStore();
    try {
      const make = (s: Store) => s.createWorkspaceIfAbsent({ id: randomUUID(), organization_id: org, name: 'raced', region_id: 'r', created_at: now() });
      const results = await Promise.all([make(store), make(other), make(store), make(other)]);
      expect(new Set(results.map((w) => w.id)).size).toBe(1);
      expect(await store.findWorkspaceByName(org, 'raced')).toEqual(results[0]);
      expect(await store.getWorkspace(results[0]!.id)).toEqual(results[0]);
      expect(await store.findWorkspaceByName(org, 'absent')).toBeNull();
    } finally {
      await other.close();
    }
  });

  it('keeps templates with their tags', async () => {
    const template = {
      id: randomUUID(),
      organization_id: org,
      kind: 'source' as const,
      name: 'CRM',
      connector_type: 'chat',
      tags: ['crm', 'sales'],
      created_at: now(),
    };
    await store.createTemplate(template);
    await store.createTemplate({ ...template, id: randomUUID(), kind: 'connection', name: 'Warehouse', tags: [] });
    expect(await store.getTemplate(template.id)).toEqual(template);
    expect((await store.listTemplates(org, 'source')).map((t) => t.name)).toEqual(['CRM']);
    expect((await store.listTemplates(org, 'connection')).map((t) => t.name)).toEqual(['Warehouse']);
  });

  it('records widget origins: re-issuing extends expires_at (never shortens it), look-ups see only live ones, the prune deletes expired ones', async () => {
    const workspace = await store.createWorkspaceIfAbsent({ id: randomUUID(), organization_id: org, name: 'widgets', region_id: 'r', created_at: now() });
    const neighbour = await store.createWorkspaceIfAbsent({ id: randomUUID(), organization_id: org, name: 'widgets-2', region_id: 'r', created_at: now() });
    const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute)).toISOString();
    const record = (s: Store, workspaceId: string, origin: string, expiresAt: string) =>
      s.recordWidgetOrigin({ organization_id: org, workspace_id: workspaceId, origin, expires_at: expiresAt });
    await record(store, workspace.id, 'https://a.example', at(20));
    expect(await store.widgetOriginLiveUntil('https://a.example', at(0))).toBe(at(20));
    expect(await store.widgetOriginLiveUntil('https://a.example', at(20))).toBeNull(); // expired at expires_at
    expect(await store.widgetOriginLiveUntil('https://A.example', at(0))).toBeNull(); // exact: callers compare the browser's form
    expect(await store.widgetOriginLiveUntil('https://b.example', at(0))).toBeNull();
    await record(store, workspace.id, 'https://a.example', at(30));
    await record(store, workspace.id, 'https://a.example', at(25));
    expect(await store.widgetOriginLiveUntil('https://a.example', at(0))).toBe(at(30));
    // Two store instances (two servers) re-issuing at once: one row, the later expiry.
    const other = await database.openStore();
    try {
      await Promise.all([record(store, workspace.id, 'https://a.example', at(35)), record(other, workspace.id, 'https://a.example', at(33))]);
    } finally {
      await other.close();
    }
    expect(await store.widgetOriginLiveUntil('https://a.example', at(0))).toBe(at(35));
    await record(store, neighbour.id, 'https://a.example', at(40));
    expect(await store.widgetOriginLiveUntil('https://a.example', at(36))).toBe(at(40));
    await record(store, workspace.id, 'https://b.example', at(10));
    expect(await store.deleteExpiredWidgetOrigins(at(35))).toBe(2);
    expect(await store.widgetOriginLiveUntil('https://b.example', at(0))).toBeNull();
    expect(await store.widgetOriginLiveUntil('https://a.example', at(0))).toBe(at(40));
    await expect(record(store, randomUUID(), 'https://a.example', at(50))).rejects.toThrow(); // no such workspace
  });

  it('keeps connectors, filters them, and deletes them', async () => {
    const workspace = await store.createWorkspaceIfAbsent({ id: randomUUID(), organization_id: org, name: 'conn', region_id: 'r', created_at: now() });
    const [template] = await store.listTemplates(org, 'source');
    const connector = (over: Partial<StoredConnector>): StoredConnector => ({
      id: randomUUID(),
      organization_id: org,
      workspace_id: workspace.id,
      external_user_id: 'u1',
      connector_type: 'chat',
      name: 'n',
      auth_type: 'token',
      credentials: { key_id: 'k1', ciphertext: 'Y2lwaGVy' },
      replication_config: null,
      source_template_id: null,
      created_at: now(),
      ...over,
    });
    const a = connector({ replication_config: { start_date: '2024-01-01T00:00:00Z', lookback_window: 3, join_channels: true } });
    const b = connector({
      external_user_id: 'u2',
      connector_type: 'file-storage',
      auth_type: 'oauth',
      source_template_id: template!.id,
      created_at: '2999-01-01T00:00:00.000Z',
    });
    await store.createConnectorIfAbsent(a);
    await store.createConnectorIfAbsent(b);
    expect(await store.getConnector(a.id)).toEqual(a);
    expect((await store.listConnectors({ workspace_id: workspace.id })).map((c) => c.id)).toEqual([a.id, b.id]);
    expect((await store.listConnectors({ workspace_id: workspace.id, external_user_id: 'u2' })).map((c) => c.id)).toEqual([b.id]);
    expect((await store.listConnectors({ workspace_id: workspace.id, connector_type: 'chat' })).map((c) => c.id)).toEqual([a.id]);
    expect((await store.listConnectors({ workspace_id: workspace.id, from_template: true })).map((c) => c.id)).toEqual([b.id]);
    expect(await store.listConnectors({ workspace_id: randomUUID() })).toEqual([]);
    // One connector per (workspace, external user, type): a second one answers the first, and is not written.
    const again = connector({});
    expect((await store.createConnectorIfAbsent(again)).id).toBe(a.id);
    expect(await store.getConnector(again.id)).toBeNull();
    const racing = Array.from({ length: 20 }, () => connector({ external_user_id: 'racer' }));
    const kept = await Promise.all(racing.map((c) => store.createConnectorIfAbsent(c)));
    expect(new Set(kept.map((c) => c.id)).size).toBe(1);
    expect(await store.listConnectors({ workspace_id: workspace.id, external_user_id: 'racer' })).toHaveLength(1);
    expect(await store.deleteConnector(a.id)).toBe(true);
    expect(await store.deleteConnector(a.id)).toBe(false);
    expect(await store.getConnector(a.id)).toBeNull();
  });
});

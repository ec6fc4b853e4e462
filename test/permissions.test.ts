import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TOKEN } from './helpers/chat-fixture.ts';
import { BACKENDS, bearer, type HostedFixture, startHostedFixture } from './helpers/hosted-fixture.ts';
import { publicAccessToken } from './helpers/public-api-calls.ts';

/**
 * Each role on each route family: what a token may do is what its application's permissions allow,
 * in the workspace (A) a workspace role is for, in another (B), and on the organization itself.
 */

type Level = 'member' | 'read' | 'run' | 'edit' | 'admin';
const RANK: Record<Level, number> = { member: 0, read: 1, run: 2, edit: 3, admin: 4 };
type Scope = 'A' | 'B' | 'org';

const ROLES = [
  'workspace_reader',
  'workspace_runner',
  'workspace_editor',
  'workspace_admin',
  'organization_member',
  'organization_reader',
  'organization_editor',
  'organization_admin',
] as const;
type RoleName = (typeof ROLES)[number];

/** What each role allows where (the docs' table): a workspace role in A only; organization_member sees no workspace. */
function levelOf(role: RoleName, scope: Scope): Level | undefined {
  const [kind, type] = role.split('_') as ['workspace' | 'organization', string];
  const held = ({ member: 'member', reader: 'read', runner: 'run', editor: 'edit', admin: 'admin' } as const)[type]!;
  if (kind === 'organization') return scope !== 'org' && held === 'member' ? undefined : held;
  return scope === 'A' ? held : scope === 'org' ? 'member' : undefined;
}
const allows = (role: RoleName, scope: Scope, needed: Level) => {
  const held = levelOf(role, scope);
  return held !== undefined && RANK[held] >= RANK[needed];
};

interface Probe {
  family: string;
  name(): string;
  scope: Scope;
  needed: Level;
  /** The request, as the role's operator token (or a token it minted) sends it; its status. */
  send(role: Member): Promise<number>;
}

interface Member {
  role: RoleName;
  userId: string;
  token: string;
}

describe.each(BACKENDS)('permissions of each role on each route family on %s', (backend) => {
  let fx: HostedFixture;
  let admin: string;
  const members = new Map<RoleName, Member>();
  const ids = {} as Record<'organization' | 'workspaceA' | 'workspaceB' | 'sourceA' | 'sourceB' | 'destinationA' | 'connectionA' | 'tagA' | 'nameA', string>;
  let counter = 0;
  const unique = (what: string) => `${what} ${++counter}`;

  /** Any request below the server's root, as `token`; its status and JSON body. */
  const send = async (token: string, method: string, path: string, json?: unknown) => {
    const response = await fx.http(path, { method: method as 'GET', headers: bearer(token), ...(json === undefined ? {} : { json }) });
    return { status: response.statusCode, body: response.body.length > 0 ? JSON.parse(response.body) : undefined, type: response.headers['content-type'] };
  };
  const ok = async (token: string, method: string, path: string, json?: unknown) => {
    const answer = await send(token, method, path, json);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    return answer.body;
  };
  const status = async (token: string, method: string, path: string, json?: unknown) => (await send(token, method, path, json)).status;

  /** A new application of the organization holding only `role` (in workspace A for a workspace role). */
  async function memberWith(role: RoleName): Promise<Member> {
    const credentials = await fx.server.hosted.applications.create('local');
    const userId = (await fx.server.hosted.store.findApplicationByClientId(credentials.client_id))!.id;
    const [own] = (await ok(admin, 'GET', `v1/permissions?userId=${userId}&organizationId=${ids.organization}`)).data;
    if (role.startsWith('workspace_')) {
      await ok(admin, 'POST', 'v1/permissions', { permissionType: role, userId, workspaceId: ids.workspaceA });
      await ok(admin, 'DELETE', `v1/permissions/${own.permissionId}`);
    } else if (role !== 'organization_admin') {
      await ok(admin, 'PATCH', `v1/permissions/${own.permissionId}`, { permissionType: role });
    }
    return { role, userId, token: await publicAccessToken(fx, credentials) };
  }

  beforeAll(async () => {
    fx = await startHostedFixture(backend);
    admin = await publicAccessToken(fx);
    ids.organization = (await ok(admin, 'GET', 'v1/organizations')).data[0].organizationId;
    ids.nameA = 'workspace A';
    ids.workspaceA = (await ok(admin, 'POST', 'v1/workspaces', { name: ids.nameA })).workspaceId;
    ids.workspaceB = (await ok(admin, 'POST', 'v1/workspaces', { name: 'workspace B' })).workspaceId;
    const chat = { sourceType: 'chat', credentials: { token: CHAT_TOKEN } };
    ids.sourceA = (await ok(admin, 'POST', 'v1/sources', { name: 'chat A', workspaceId: ids.workspaceA, configuration: chat })).sourceId;
    ids.sourceB = (await ok(admin, 'POST', 'v1/sources', { name: 'chat B', workspaceId: ids.workspaceB, configuration: chat })).sourceId;
    const duck = { destinationType: 'duckdb', destination_path: '/local/a.duckdb', schema: 'main' };
    ids.destinationA = (await ok(admin, 'POST', 'v1/destinations', { name: 'duck A', workspaceId: ids.workspaceA, configuration: duck })).destinationId;
    const streams = { streams: [{ name: 'users', syncMode: 'full_refresh_overwrite' }] };
    const connection = { sourceId: ids.sourceA, destinationId: ids.destinationA, name: 'A', configurations: streams, status: 'inactive' };
    ids.connectionA = (await ok(admin, 'POST', 'v1/connections', connection)).connectionId;
    ids.tagA = (await ok(admin, 'POST', 'v1/tags', { name: 'tag A', color: 'AA00AA', workspaceId: ids.workspaceA })).tagId;
    for (const role of ROLES) members.set(role, await memberWith(role));
  }, 120_000);
  afterAll(async () => {
    await fx?.close();
  });

  const OAUTH_APP = { actorType: 'source', name: 'slack', configuration: { credentials: { client_id: 'c', client_secret: 's' } } };
  const probe = (family: string, name: string | (() => string), scope: Scope, needed: Level, send: Probe['send']): Probe => ({
    family,
    name: typeof name === 'string' ? () => name : name,
    scope,
    needed,
    send,
  });
  /** A probe of one request as the member's operator token. */
  const call = (family: string, scope: Scope, needed: Level, method: string, path: () => string, body?: () => unknown) =>
    probe(
      family,
      () => `${method} ${path()}`,
      scope,
      needed,
      (member) => status(member.token, method, path(), body?.()),
    );
  /** A scoped token the member mints for workspace A (a 403 when it may not even read there). */
  const scopedToken = async (member: Member) => {
    const answer = await send(member.token, 'POST', 'api/v1/embedded/scoped-token', { workspace_name: ids.nameA });
    return answer.status === 200 ? (answer.body.token as string) : undefined;
  };

  const PROBES: Probe[] = [
    call('workspaces', 'A', 'read', 'GET', () => `v1/workspaces/${ids.workspaceA}`),
    call('workspaces', 'B', 'read', 'GET', () => `v1/workspaces/${ids.workspaceB}`),
    call(
      'workspaces',
      'A',
      'admin',
      'PATCH',
      () => `v1/workspaces/${ids.workspaceA}`,
      () => ({ name: ids.nameA }),
    ),
    call(
      'workspaces',
      'org',
      'admin',
      'POST',
      () => 'v1/workspaces',
      () => ({ name: unique('made') }),
    ),
    call('sources', 'A', 'read', 'GET', () => `v1/sources/${ids.sourceA}`),
    call('sources', 'B', 'read', 'GET', () => `v1/sources/${ids.sourceB}`),
    call(
      'sources',
      'A',
      'edit',
      'PATCH',
      () => `v1/sources/${ids.sourceA}`,
      () => ({ name: unique('chat A') }),
    ),
    call(
      'sources',
      'B',
      'edit',
      'PATCH',
      () => `v1/sources/${ids.sourceB}`,
      () => ({ name: unique('chat B') }),
    ),
    call('destinations', 'A', 'read', 'GET', () => `v1/destinations/${ids.destinationA}`),
    call(
      'destinations',
      'A',
      'edit',
      'PATCH',
      () => `v1/destinations/${ids.destinationA}`,
      () => ({ name: unique('duck A') }),
    ),
    call('connections', 'A', 'read', 'GET', () => `v1/connections/${ids.connectionA}`),
    call(
      'connections',
      'A',
      'edit',
      'PATCH',
      () => `v1/connections/${ids.connectionA}`,
      () => ({ name: unique('A') }),
    ),
    call('jobs', 'A', 'read', 'GET', () => `v1/jobs?connectionId=${ids.connectionA}`),
    probe('jobs', 'POST v1/jobs, then DELETE it', 'A', 'run', async (member) => {
      const answer = await send(member.token, 'POST', 'v1/jobs', { connectionId: ids.connectionA, jobType: 'sync' });
      if (answer.status !== 200) return answer.status;
      // Cancelled and waited for: the next role's job finds the connection free.
      await ok(admin, 'DELETE', `v1/jobs/${answer.body.jobId}`);
      while (!['cancelled', 'succeeded', 'failed'].includes((await ok(admin, 'GET', `v1/jobs/${answer.body.jobId}`)).status)) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return answer.status;
    }),
    call('definitions', 'A', 'read', 'GET', () => `v1/workspaces/${ids.workspaceA}/definitions/sources`),
    call(
      'definitions',
      'A',
      'edit',
      'POST',
      () => `v1/workspaces/${ids.workspaceA}/definitions/destinations`,
      () => ({
        name: unique('container'),
        dockerRepository: 'example/thing',
        dockerImageTag: '1.0.0',
        documentationUrl: 'https://example.com/docs',
      }),
    ),
    call('tags', 'A', 'read', 'GET', () => `v1/tags/${ids.tagA}`),
    call(
      'tags',
      'A',
      'edit',
      'POST',
      () => 'v1/tags',
      () => ({ name: unique('t'), color: '00AA00', workspaceId: ids.workspaceA }),
    ),
    call('streams', 'A', 'read', 'GET', () => `v1/streams?sourceId=${ids.sourceA}`),
    call('streams', 'B', 'read', 'GET', () => `v1/streams?sourceId=${ids.sourceB}`),
    call('users', 'org', 'read', 'GET', () => `v1/users?organizationId=${ids.organization}`),
    call('permissions', 'org', 'member', 'GET', () => 'v1/permissions'),
    probe('permissions', 'POST v1/permissions (workspace_reader in A), then DELETE it', 'A', 'admin', async (member) => {
      const body = { permissionType: 'workspace_reader', userId: members.get('organization_member')!.userId, workspaceId: ids.workspaceA };
      const answer = await send(member.token, 'POST', 'v1/permissions', body);
      if (answer.status === 200) await ok(admin, 'DELETE', `v1/permissions/${answer.body.permissionId}`);
      return answer.status;
    }),
    call('organizations', 'org', 'member', 'GET', () => 'v1/organizations'),
    call(
      'organizations',
      'org',
      'read',
      'POST',
      () => 'api/v1/organizations/get_organization_info',
      () => ({ organizationId: ids.organization }),
    ),
    call('OAuth credentials', 'A', 'admin', 'GET', () => `v1/workspaces/${ids.workspaceA}/oauthCredentials`),
    call('OAuth credentials', 'org', 'admin', 'GET', () => `v1/organizations/${ids.organization}/oauthCredentials`),
    call(
      'OAuth credentials',
      'A',
      'admin',
      'PUT',
      () => `v1/workspaces/${ids.workspaceA}/oauthCredentials`,
      () => OAUTH_APP,
    ),
    call(
      'OAuth credentials',
      'org',
      'admin',
      'PUT',
      () => `v1/organizations/${ids.organization}/oauthCredentials`,
      () => OAUTH_APP,
    ),
    call('notifications', 'A', 'read', 'GET', () => `v1/workspaces/${ids.workspaceA}/notifications/deliveries`),
    call('notifications', 'A', 'admin', 'POST', () => `v1/workspaces/${ids.workspaceA}/notifications/secret`),
    call('notifications', 'org', 'read', 'GET', () => 'api/v1/organizations/webhook/deliveries'),
    call('notifications', 'org', 'admin', 'POST', () => 'api/v1/organizations/webhook/secret'),
    call(
      'config API',
      'A',
      'read',
      'POST',
      () => 'api/v1/state/get',
      () => ({ connectionId: ids.connectionA }),
    ),
    call(
      'config API',
      'A',
      'read',
      'POST',
      () => 'api/v1/web_backend/connections/get',
      () => ({ connectionId: ids.connectionA }),
    ),
    call(
      'config API',
      'A',
      'run',
      'POST',
      () => 'api/v1/sources/check_connection',
      () => ({ sourceId: ids.sourceA }),
    ),
    call('templates', 'org', 'member', 'GET', () => 'api/v1/integrations/templates/sources'),
    call(
      'templates',
      'org',
      'edit',
      'POST',
      () => 'api/v1/integrations/templates/sources',
      () => ({ name: unique('template'), connector_type: 'chat' }),
    ),
    call(
      'tokens',
      'A',
      'read',
      'POST',
      () => 'api/v1/embedded/scoped-token',
      () => ({ workspace_name: ids.nameA }),
    ),
    call(
      'tokens',
      'org',
      'admin',
      'POST',
      () => 'api/v1/embedded/scoped-token',
      () => ({ workspace_name: unique('provisioned') }),
    ),
    probe('connectors', "a scoped token's GET api/v1/integrations/connectors", 'A', 'read', async (member) => {
      const token = await scopedToken(member);
      return token ? status(token, 'GET', 'api/v1/integrations/connectors') : 403;
    }),
    probe('connectors', "a scoped token's POST v1/integrations/connectors", 'A', 'edit', async (member) => {
      const token = await scopedToken(member);
      const body = { external_user_id: unique('user'), connector_type: 'chat', credentials: { token: CHAT_TOKEN } };
      return token ? status(token, 'POST', 'v1/integrations/connectors', body) : 403;
    }),
  ];

  it('allows each role what its permissions cover and refuses (403) the rest, on every route family', async () => {
    const wrong: string[] = [];
    for (const member of members.values()) {
      for (const p of PROBES) {
        const got = await p.send(member);
        const allowed = allows(member.role, p.scope, p.needed);
        if (allowed ? got >= 400 : got !== 403) wrong.push(`${member.role} ${p.family}: ${p.name()} (${p.needed} in ${p.scope}) got ${got}`);
      }
    }
    expect(wrong).toEqual([]);
    // Every family the issue names is probed.
    expect(new Set(PROBES.map((p) => p.family)).size).toBe(17);
  }, 300_000);

  it('refuses with the public API problem details, and lists only the workspaces a caller may read', async () => {
    const reader = members.get('workspace_reader')!;
    const refused = await send(reader.token, 'PATCH', `v1/sources/${ids.sourceA}`, { name: 'no' });
    expect([refused.status, refused.type, refused.body.status]).toEqual([403, 'application/problem+json', 403]);
    for (const path of ['v1/workspaces', 'v1/sources', 'v1/tags', 'v1/connections']) {
      const listed = (await ok(reader.token, 'GET', path)).data as Array<{ workspaceId: string }>;
      expect(new Set(listed.map((item) => item.workspaceId)), path).toEqual(new Set([ids.workspaceA]));
    }
    // Asking for B by name lists nothing of it.
    expect((await ok(reader.token, 'GET', `v1/sources?workspaceIds=${ids.workspaceB}`)).data).toEqual([]);
    const everything = (await ok(admin, 'GET', 'v1/workspaces')).data as Array<{ workspaceId: string }>;
    expect(everything.map((w) => w.workspaceId)).toEqual(expect.arrayContaining([ids.workspaceA, ids.workspaceB]));
  });

  it("limits a scoped or widget token to its application's role, and a permission taken away stops it at once", async () => {
    const reader = await memberWith('workspace_reader');
    const scoped = (await ok(reader.token, 'POST', 'api/v1/embedded/scoped-token', { workspace_name: ids.nameA })).token as string;
    expect(await status(scoped, 'GET', 'api/v1/integrations/connectors')).toBe(200);
    const body = { external_user_id: 'reader', connector_type: 'chat', credentials: { token: CHAT_TOKEN } };
    expect(await status(scoped, 'POST', 'v1/integrations/connectors', body)).toBe(403);
    const widget = await ok(reader.token, 'POST', 'api/v1/embedded/widget-token', { workspace_name: ids.nameA, allowed_origin: 'https://app.example' });
    const widgetToken = JSON.parse(Buffer.from(widget.token, 'base64').toString()).token as string;
    expect(await status(widgetToken, 'GET', 'api/v1/embedded/sources')).toBe(200);
    expect(await status(widgetToken, 'POST', 'api/v1/embedded/sources', { source_template_id: randomUUID(), name: 'x', credentials: {} })).toBe(403);
    // Taken away: its operator and scoped tokens stop reading at once.
    const [permission] = (await ok(admin, 'GET', `v1/permissions?userId=${reader.userId}&organizationId=${ids.organization}`)).data;
    await ok(admin, 'DELETE', `v1/permissions/${permission.permissionId}`);
    expect(await status(reader.token, 'GET', `v1/sources/${ids.sourceA}`)).toBe(403);
    expect(await status(scoped, 'GET', 'api/v1/integrations/connectors')).toBe(403);
  });

  it('keeps an organization_admin, and lets no caller grant beyond its own role', async () => {
    const self = (await ok(admin, 'GET', 'v1/permissions')).data as Array<{ permissionId: string; permissionType: string; scope: string }>;
    const own = self.find((p) => p.scope === 'organization')!;
    expect(own.permissionType).toBe('organization_admin');
    // organization_admin (the member made for it) and the first application: take the member's away first.
    const other = members.get('organization_admin')!;
    const [theirs] = (await ok(admin, 'GET', `v1/permissions?userId=${other.userId}&organizationId=${ids.organization}`)).data;
    await ok(admin, 'PATCH', `v1/permissions/${theirs.permissionId}`, { permissionType: 'organization_reader' });
    const last = await send(admin, 'DELETE', `v1/permissions/${own.permissionId}`);
    expect([last.status, last.body.type]).toEqual([409, 'urn:plugboard:error:last_organization_admin']);
    expect((await send(admin, 'PATCH', `v1/permissions/${own.permissionId}`, { permissionType: 'organization_editor' })).status).toBe(409);
    await ok(admin, 'PATCH', `v1/permissions/${theirs.permissionId}`, { permissionType: 'organization_admin' });

    const workspaceAdmin = members.get('workspace_admin')!;
    const member = members.get('organization_member')!;
    const orgGrant = await send(workspaceAdmin.token, 'POST', 'v1/permissions', { permissionType: 'organization_reader', userId: member.userId });
    expect(orgGrant.status).toBe(403);
    const elsewhere = { permissionType: 'workspace_reader', userId: member.userId, workspaceId: ids.workspaceB };
    expect((await send(workspaceAdmin.token, 'POST', 'v1/permissions', elsewhere)).status).toBe(403);
    expect((await send(admin, 'PATCH', `v1/permissions/${own.permissionId}`, { permissionType: 'instance_admin' })).status).toBe(403);
    const scope = await send(admin, 'POST', 'v1/permissions', { permissionType: 'workspace_reader', userId: member.userId });
    expect([scope.status, scope.body.type]).toEqual([400, 'urn:plugboard:error:permission_scope']);
    const twice = { permissionType: 'organization_reader', userId: member.userId };
    expect((await send(admin, 'POST', 'v1/permissions', twice)).status).toBe(409);
  });
});

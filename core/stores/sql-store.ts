import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { isUniqueViolation, type SharedLimiterOptions, type SqlDriver, type SqlValue } from './sql-driver.ts';
import { migrate } from './migrate.ts';
import {
  MissingReferenceError,
  type Application,
  type ConnectorChanges,
  type ConnectorFilter,
  type Organization,
  type SigningKey,
  type Store,
  type StoredConnector,
  type Template,
  type TemplateKind,
  type WidgetOrigin,
  type Workspace,
  type WorkspaceChanges,
  DuplicateKeyError,
} from './types.ts';

interface SigningKeyRow {
  kid: string;
  alg: 'ES256';
  public_jwk: string;
  private_jwk_key_id: string;
  private_jwk_ciphertext: string;
  created_at: string;
  retired_at: string | null;
}

interface TemplateRow extends Omit<Template, 'tags'> {
  tags: string;
}

interface WorkspaceRow extends Omit<Workspace, 'notifications'> {
  notifications: string | null;
}

function toWorkspace(row: WorkspaceRow | undefined): Workspace | null {
  if (!row) return null;
  return {
    ...row,
    notifications: row.notifications === null || row.notifications === undefined ? null : (JSON.parse(row.notifications) as object),
  };
}

interface ConnectorRow extends Omit<StoredConnector, 'credentials' | 'replication_config'> {
  credentials_key_id: string;
  credentials_ciphertext: string;
  replication_config: string | null;
}

/** The Store over either SQL driver: one set of queries for SQLite and PostgreSQL. */
export class SqlStore implements Store {
  constructor(private readonly db: SqlDriver) {}

  migrate(): Promise<void> {
    return migrate(this.db);
  }

  close(): Promise<void> {
    return this.db.close();
  }

  rateLimiter(options: Omit<SharedLimiterOptions, 'table'>): RateLimiterAbstract {
    return this.db.rateLimiter({ ...options, table: 'credential_attempts' });
  }

  transaction<T>(work: (store: Store) => Promise<T>, lockKey?: number): Promise<T> {
    return this.db.transaction((tx) => work(new SqlStore(tx)), lockKey);
  }

  async createOrganization(org: Organization): Promise<void> {
    await this.db.run('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)', [org.id, org.name, org.created_at]);
  }

  async getOrganization(id: string): Promise<Organization | null> {
    return (await this.db.get<Organization>('SELECT id, name, created_at FROM organizations WHERE id = ?', [id])) ?? null;
  }

  async findOrganizationByName(name: string): Promise<Organization | null> {
    return (await this.db.get<Organization>('SELECT id, name, created_at FROM organizations WHERE name = ? ORDER BY created_at, id LIMIT 1', [name])) ?? null;
  }

  async createApplication(app: Application): Promise<void> {
    await this.db.run('INSERT INTO applications (id, organization_id, client_id, secret_hash, created_at) VALUES (?, ?, ?, ?, ?)', [
      app.id,
      app.organization_id,
      app.client_id,
      app.secret_hash,
      app.created_at,
    ]);
  }

  async findApplicationByClientId(clientId: string): Promise<Application | null> {
    return (
      (await this.db.get<Application>('SELECT id, organization_id, client_id, secret_hash, created_at FROM applications WHERE client_id = ?', [clientId])) ??
      null
    );
  }

  async listApplications(organizationId?: string): Promise<Application[]> {
    const columns = 'SELECT id, organization_id, client_id, secret_hash, created_at FROM applications';
    return organizationId === undefined
      ? this.db.all<Application>(`${columns} ORDER BY created_at, id`)
      : this.db.all<Application>(`${columns} WHERE organization_id = ? ORDER BY created_at, id`, [organizationId]);
  }

  async updateApplicationSecretHash(id: string, secretHash: string): Promise<void> {
    await this.db.run('UPDATE applications SET secret_hash = ? WHERE id = ?', [secretHash, id]);
  }

  async countApplications(): Promise<number> {
    const row = await this.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM applications');
    return Number(row?.n ?? 0);
  }

  async insertSigningKey(key: SigningKey): Promise<void> {
    await this.db.run(
      'INSERT INTO signing_keys (kid, alg, public_jwk, private_jwk_key_id, private_jwk_ciphertext, created_at, retired_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [key.kid, key.alg, JSON.stringify(key.public_jwk), key.private_jwk.key_id, key.private_jwk.ciphertext, key.created_at, key.retired_at],
    );
  }

  async listSigningKeys(): Promise<SigningKey[]> {
    const rows = await this.db.all<SigningKeyRow>('SELECT * FROM signing_keys ORDER BY created_at DESC, kid DESC');
    return rows.map((row) => ({
      kid: row.kid,
      alg: row.alg,
      public_jwk: JSON.parse(row.public_jwk) as Record<string, unknown>,
      private_jwk: { key_id: row.private_jwk_key_id, ciphertext: row.private_jwk_ciphertext },
      created_at: row.created_at,
      retired_at: row.retired_at,
    }));
  }

  async retireSigningKey(kid: string, retiredAt: string): Promise<void> {
    await this.db.run('UPDATE signing_keys SET retired_at = ? WHERE kid = ?', [retiredAt, kid]);
  }

  async createWorkspaceIfAbsent(workspace: Workspace): Promise<Workspace> {
    // Two instances may create the same workspace at once: the unique (organization, name) keeps one.
    await this.insert(
      'INSERT INTO workspaces (id, organization_id, name, region_id, created_at, notifications) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (organization_id, name) DO NOTHING',
      [
        workspace.id,
        workspace.organization_id,
        workspace.name,
        workspace.region_id,
        workspace.created_at,
        workspace.notifications ? JSON.stringify(workspace.notifications) : null,
      ],
    );
    return (await this.findWorkspaceByName(workspace.organization_id, workspace.name))!;
  }

  async findWorkspaceByName(organizationId: string, name: string): Promise<Workspace | null> {
    return toWorkspace(await this.db.get<WorkspaceRow>('SELECT * FROM workspaces WHERE organization_id = ? AND name = ?', [organizationId, name]));
  }

  async getWorkspace(id: string): Promise<Workspace | null> {
    return toWorkspace(await this.db.get<WorkspaceRow>('SELECT * FROM workspaces WHERE id = ?', [id]));
  }

  async listWorkspaces(organizationId: string, page: { ids?: string[]; limit: number; offset: number }): Promise<Workspace[]> {
    const ids = page.ids ?? [];
    const rows = await this.db.all<WorkspaceRow>(
      `SELECT * FROM workspaces WHERE organization_id = ?${ids.length > 0 ? ` AND id IN (${ids.map(() => '?').join(', ')})` : ''}
       ORDER BY created_at, id LIMIT ? OFFSET ?`,
      [organizationId, ...ids, page.limit, page.offset],
    );
    return rows.map((row) => toWorkspace(row)!);
  }

  async updateWorkspace(id: string, changes: WorkspaceChanges): Promise<boolean> {
    return this.updateColumns('workspaces', id, {
      name: changes.name,
      region_id: changes.region_id,
      notifications: changes.notifications === undefined ? undefined : changes.notifications === null ? null : JSON.stringify(changes.notifications),
    });
  }

  async deleteWorkspace(id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM workspaces WHERE id = ?', [id])).changes > 0;
  }

  async createTemplate(template: Template): Promise<void> {
    await this.insert('INSERT INTO templates (id, organization_id, kind, name, connector_type, tags, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      template.id,
      template.organization_id,
      template.kind,
      template.name,
      template.connector_type,
      JSON.stringify(template.tags),
      template.created_at,
    ]);
  }

  async listTemplates(organizationId: string, kind: TemplateKind): Promise<Template[]> {
    const rows = await this.db.all<TemplateRow>('SELECT * FROM templates WHERE organization_id = ? AND kind = ? ORDER BY created_at, id', [
      organizationId,
      kind,
    ]);
    return rows.map(toTemplate);
  }

  async getTemplate(id: string): Promise<Template | null> {
    const row = await this.db.get<TemplateRow>('SELECT * FROM templates WHERE id = ?', [id]);
    return row ? toTemplate(row) : null;
  }

  async createConnectorIfAbsent(c: StoredConnector): Promise<StoredConnector> {
    // Concurrent creations of one key race on the unique index: exactly one row is written.
    await this.insert(
      `INSERT INTO connectors (id, organization_id, workspace_id, external_user_id, connector_type, name, auth_type, credentials_key_id, credentials_ciphertext, replication_config, source_template_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (workspace_id, external_user_id, connector_type) DO NOTHING`,
      [
        c.id,
        c.organization_id,
        c.workspace_id,
        c.external_user_id,
        c.connector_type,
        c.name,
        c.auth_type,
        c.credentials.key_id,
        c.credentials.ciphertext,
        c.replication_config === null ? null : JSON.stringify(c.replication_config),
        c.source_template_id,
        c.created_at,
      ],
    );
    const [kept] = await this.listConnectors({ workspace_id: c.workspace_id, external_user_id: c.external_user_id, connector_type: c.connector_type });
    // The one in the way was deleted between the two statements: the key is free again.
    return kept ?? this.createConnectorIfAbsent(c);
  }

  async getConnector(id: string): Promise<StoredConnector | null> {
    const row = await this.db.get<ConnectorRow>('SELECT * FROM connectors WHERE id = ?', [id]);
    return row ? toConnector(row) : null;
  }

  async listConnectors(filter: ConnectorFilter): Promise<StoredConnector[]> {
    const where = ['workspace_id = ?'];
    const params: Array<string | number> = [filter.workspace_id];
    if (filter.external_user_id !== undefined) {
      where.push('external_user_id = ?');
      params.push(filter.external_user_id);
    }
    if (filter.connector_type !== undefined) {
      where.push('connector_type = ?');
      params.push(filter.connector_type);
    }
    if (filter.from_template !== undefined) where.push(filter.from_template ? 'source_template_id IS NOT NULL' : 'source_template_id IS NULL');
    const rows = await this.db.all<ConnectorRow>(`SELECT * FROM connectors WHERE ${where.join(' AND ')} ORDER BY created_at, id`, params);
    return rows.map(toConnector);
  }

  async updateConnector(id: string, changes: ConnectorChanges): Promise<boolean> {
    const { replication_config: config, credentials } = changes;
    return this.updateColumns('connectors', id, {
      name: changes.name,
      replication_config: config === undefined ? undefined : config === null ? null : JSON.stringify(config),
      auth_type: credentials?.auth_type,
      credentials_key_id: credentials?.credentials.key_id,
      credentials_ciphertext: credentials?.credentials.ciphertext,
    });
  }

  /**
   * Sets the columns given a value (undefined: left as they are) of one row; false when the row is
   * gone. A value another row already holds under a unique key is a DuplicateKeyError.
   */
  private async updateColumns(table: 'workspaces' | 'connectors', id: string, values: Record<string, SqlValue | undefined>): Promise<boolean> {
    const columns = Object.entries(values).filter((entry): entry is [string, SqlValue] => entry[1] !== undefined);
    if (columns.length === 0) return (await this.db.get(`SELECT 1 FROM ${table} WHERE id = ?`, [id])) !== undefined;
    try {
      const sets = columns.map(([name]) => `${name} = ?`).join(', ');
      return (await this.db.run(`UPDATE ${table} SET ${sets} WHERE id = ?`, [...columns.map(([, value]) => value), id])).changes > 0;
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateKeyError();
      throw error;
    }
  }

  async deleteConnector(id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM connectors WHERE id = ?', [id])).changes > 0;
  }

  async deleteExpiredCredentialAttempts(beforeMs: number): Promise<number> {
    return (await this.db.run('DELETE FROM credential_attempts WHERE expire < ?', [beforeMs])).changes;
  }

  /** An INSERT whose row names an organization or workspace: one that does not exist is a MissingReferenceError. */
  private async insert(sql: string, params: SqlValue[]): Promise<void> {
    try {
      await this.db.run(sql, params);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503') throw new MissingReferenceError();
      throw error;
    }
  }

  async recordWidgetOrigin(record: WidgetOrigin): Promise<void> {
    // Never shortened: an instance whose clock is behind must not cut short a token another one issued.
    await this.db.run(
      `INSERT INTO widget_origins (organization_id, workspace_id, origin, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (workspace_id, origin) DO UPDATE SET expires_at = excluded.expires_at WHERE excluded.expires_at > widget_origins.expires_at`,
      [record.organization_id, record.workspace_id, record.origin, record.expires_at],
    );
  }

  async widgetOriginLiveUntil(origin: string, now: string): Promise<string | null> {
    const row = await this.db.get<{ expires_at: string | null }>(
      'SELECT MAX(expires_at) AS expires_at FROM widget_origins WHERE origin = ? AND expires_at > ?',
      [origin, now],
    );
    return row?.expires_at ?? null;
  }

  async deleteExpiredWidgetOrigins(before: string): Promise<number> {
    return (await this.db.run('DELETE FROM widget_origins WHERE expires_at <= ?', [before])).changes;
  }
}

function toTemplate(row: TemplateRow): Template {
  return { ...row, tags: JSON.parse(row.tags) as string[] };
}

function toConnector(row: ConnectorRow): StoredConnector {
  const { credentials_key_id, credentials_ciphertext, replication_config, ...rest } = row;
  return {
    ...rest,
    credentials: { key_id: credentials_key_id, ciphertext: credentials_ciphertext },
    replication_config: replication_config === null ? null : (JSON.parse(replication_config) as Record<string, unknown>),
  };
}

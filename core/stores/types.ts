import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { SharedLimiterOptions } from './sql-driver.ts';

/**
 * Persistence of the hosted runtime. One interface, two implementations sharing their SQL: the
 * embedded default (SQLite, a file under PLUGBOARD_DATA_DIR) and PostgreSQL (DATABASE_URL) for
 * several server instances. Timestamps are ISO-8601 strings in UTC; ids are UUIDs.
 */

/** A row was written naming an organization or workspace that does not exist (a foreign key the database refused). */
export class MissingReferenceError extends Error {
  constructor() {
    super('the organization or workspace this row belongs to does not exist');
    this.name = 'MissingReferenceError';
  }
}

export interface Organization {
  id: string;
  name: string;
  created_at: string;
}

/** Application credentials of an organization. The secret is kept only as a salted hash. */
export interface Application {
  id: string;
  organization_id: string;
  client_id: string;
  /** `hmac-sha256$<data key id>$<mac b64>` (older installs: `scrypt$<salt b64>$<hash b64>`): never the secret itself. */
  secret_hash: string;
  created_at: string;
}

/** A token-signing key pair. The private JWK is stored encrypted with the deployment's data key. */
export interface SigningKey {
  kid: string;
  alg: 'ES256';
  public_jwk: Record<string, unknown>;
  private_jwk: EncryptedValue;
  created_at: string;
  /** When the key stopped signing; it still verifies until every token it signed has expired. */
  retired_at: string | null;
}

export interface EncryptedValue {
  /** Id of the data key that encrypted it, so keys can rotate. */
  key_id: string;
  /** base64 of iv | auth tag | ciphertext (AES-256-GCM). */
  ciphertext: string;
}

export interface Workspace {
  id: string;
  organization_id: string;
  name: string;
  region_id: string;
  created_at: string;
  /** The public cloud API's notification settings, as given (none until set). */
  notifications?: object | null;
}

/** What an update of a workspace may change. */
export type WorkspaceChanges = Partial<Pick<Workspace, 'name' | 'region_id' | 'notifications'>>;

/** A row would repeat a unique key (a workspace name taken in its organization). */
export class DuplicateKeyError extends Error {
  constructor() {
    super('a row with this key already exists');
  }
}

export type TemplateKind = 'source' | 'connection';

export interface Template {
  id: string;
  organization_id: string;
  kind: TemplateKind;
  name: string;
  connector_type: string;
  tags: string[];
  created_at: string;
}

export interface StoredConnector {
  id: string;
  organization_id: string;
  workspace_id: string;
  external_user_id: string;
  connector_type: string;
  name: string;
  /** `config`: a configured type's configuration (an Airbyte manifest's) is what is sealed. */
  auth_type: 'oauth' | 'token' | 'config';
  credentials: EncryptedValue;
  replication_config: Record<string, unknown> | null;
  /** Set when the connector was created as an embedded source from a source template. */
  source_template_id: string | null;
  created_at: string;
}

/**
 * The origin of a widget token, recorded where every instance sees it: CORS preflights carry no token,
 * so they are answered for the origins that have a live record.
 */
export interface WidgetOrigin {
  organization_id: string;
  workspace_id: string;
  /** As the token carries it: the form browsers send in `Origin` (see checkAllowedOrigin). */
  origin: string;
  /** The widget's scoped token's `exp`. */
  expires_at: string;
}

/** What an update of a connector may change (never its workspace, external user or type); credentials come with their auth type. */
export type ConnectorChanges = Partial<Pick<StoredConnector, 'name' | 'replication_config'>> & {
  credentials?: Pick<StoredConnector, 'auth_type' | 'credentials'>;
};

export interface ConnectorFilter {
  workspace_id: string;
  external_user_id?: string;
  connector_type?: string;
  /** Only connectors created from a source template (the embedded sources end users create through the widget). */
  from_template?: boolean;
}

export interface Store {
  /** Applies pending versioned migrations; safe when several instances start at once. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * Runs `work` in one transaction, against a store bound to it. `lockKey` serialises it with every
   * other transaction of that key, across processes: a PostgreSQL advisory lock; SQLite's write lock
   * (BEGIN IMMEDIATE) already serialises every writer. Not nestable; keep slow work (hashing) outside.
   */
  transaction<T>(work: (store: Store) => Promise<T>, lockKey?: number): Promise<T>;

  /**
   * A counter of failed credential attempts per key, shared by every instance on this store: tracked
   * in the database, so a caller can't escape the limit by reaching another instance.
   */
  rateLimiter(options: Omit<SharedLimiterOptions, 'table'>): RateLimiterAbstract;
  /** Deletes the counts whose window ended before `beforeMs` (milliseconds since the epoch); answers how many. */
  deleteExpiredCredentialAttempts(beforeMs: number): Promise<number>;

  createOrganization(org: Organization): Promise<void>;
  getOrganization(id: string): Promise<Organization | null>;
  /** The oldest organization of that name (names are not unique: installs made before find-or-create may hold several). */
  findOrganizationByName(name: string): Promise<Organization | null>;

  createApplication(app: Application): Promise<void>;
  findApplicationByClientId(clientId: string): Promise<Application | null>;
  /** The applications of an organization (none given: of every one), oldest first. */
  listApplications(organizationId?: string): Promise<Application[]>;
  /** Replaces a legacy secret hash with its current form (after a successful verification). */
  updateApplicationSecretHash(id: string, secretHash: string): Promise<void>;
  countApplications(): Promise<number>;

  insertSigningKey(key: SigningKey): Promise<void>;
  /** Every key, newest first (the newest unretired one signs). */
  listSigningKeys(): Promise<SigningKey[]>;
  retireSigningKey(kid: string, retiredAt: string): Promise<void>;

  /** Creates the workspace, or returns the one that already has that (organization, name): races resolve to one row. */
  createWorkspaceIfAbsent(workspace: Workspace): Promise<Workspace>;
  findWorkspaceByName(organizationId: string, name: string): Promise<Workspace | null>;
  getWorkspace(id: string): Promise<Workspace | null>;
  /** The organization's workspaces, oldest first (`ids`: only those), one page. */
  listWorkspaces(organizationId: string, page: { ids?: string[]; limit: number; offset: number }): Promise<Workspace[]>;
  /** Replaces the given fields; false when the workspace is gone; DuplicateKeyError for a name taken in its organization. */
  updateWorkspace(id: string, changes: WorkspaceChanges): Promise<boolean>;
  /** Deletes the workspace and, by cascade, its connectors and widget origins; true when it existed. */
  deleteWorkspace(id: string): Promise<boolean>;

  createTemplate(template: Template): Promise<void>;
  listTemplates(organizationId: string, kind: TemplateKind): Promise<Template[]>;
  getTemplate(id: string): Promise<Template | null>;

  /**
   * Creates the connector, or returns the one that already has its (workspace, external user, type):
   * one connector per key, and concurrent creations resolve to one row.
   */
  createConnectorIfAbsent(connector: StoredConnector): Promise<StoredConnector>;
  getConnector(id: string): Promise<StoredConnector | null>;
  listConnectors(filter: ConnectorFilter): Promise<StoredConnector[]>;
  /** Replaces the given fields only (a concurrent update of the others stands); false when the connector is gone. */
  updateConnector(id: string, changes: ConnectorChanges): Promise<boolean>;
  /** True when a row was deleted. */
  deleteConnector(id: string): Promise<boolean>;

  /** Records a widget token's origin; one already recorded for that workspace keeps the later expires_at. */
  recordWidgetOrigin(record: WidgetOrigin): Promise<void>;
  /** The latest expires_at of the origin's records still live at `now` (any workspace), or null: none is. */
  widgetOriginLiveUntil(origin: string, now: string): Promise<string | null>;
  /** Deletes the records expired at or before `before`; answers how many. */
  deleteExpiredWidgetOrigins(before: string): Promise<number>;
}

import { randomBytes } from 'node:crypto';
import type { ApiConnection, ApiDestination, ApiSource, ApiWorkspace, ConfigOrganizationInfo, JsonObject } from './api-types.ts';
import { CloudClientConfig, type CloudClientConfigOptions, ENV } from './config.ts';
import { CloudConnection, type DeleteConnectionOptions } from './connection.ts';
import { type CustomDefinitionType, CustomCloudSourceDefinition, definitionsPath } from './custom-definition.ts';
import type { CustomSourceDefinitionInput, PublishOptions } from './custom-definition-publish.ts';
import { CloudDestination } from './destination.ts';
import { CloudError, DuplicateResourcesError, InputError, MissingResourceError, SecretNotFoundError } from './errors.ts';
import { ApiClient } from './http/api-client.ts';
import { unsupportedIfAbsent } from './unsupported.ts';
import { assertSafeToDelete } from './safe-mode.ts';
import { CloudSource } from './source.ts';

export interface CloudWorkspaceOptions extends CloudClientConfigOptions {
  workspaceId: string;
  /** A config made beforehand, instead of the credential and root fields. */
  config?: CloudClientConfig;
  /** Where file destinations' `/local/...` paths are on this machine, for reading synced tables (default PLUGBOARD_CLOUD_LOCAL_ROOT). */
  localRoot?: string;
  /** Secrets the API masks in destination configurations (a PostgreSQL `password`), by destination id, for reading synced tables. */
  destinationSecrets?: Record<string, Record<string, string>>;
  /** Per request, in milliseconds (default 60 s). */
  timeoutMs?: number;
}

/** A source or destination to deploy: its configuration (naming its type), or that with a definition id. */
export type ConnectorInput = JsonObject | { configuration: JsonObject; definitionId?: string };

export interface DeployOptions {
  /** Refuse a name already taken in the workspace (default true): DuplicateResourcesError. */
  unique?: boolean;
  /** Append a random ` (ID: ...)` to the name (default false). */
  randomNameSuffix?: boolean;
}

export interface DeployConnectionOptions {
  source: string | CloudSource;
  destination: string | CloudDestination;
  /** The streams to sync, each in its default mode (at least one). */
  selectedStreams: readonly string[];
  /** Prepended to every table's name (default none). */
  tablePrefix?: string;
}

export interface ListOptions {
  /** Only those with exactly this name. */
  name?: string;
  /** Only those whose name it accepts. */
  nameFilter?: (name: string) => boolean;
}

export interface CloudOrganization {
  organizationId: string;
  organizationName: string;
}

/**
 * A workspace of the public cloud API and the way to everything in it: sources, destinations,
 * connections, custom source definitions. Objects handed out by id load their data on first use.
 */
export class CloudWorkspace {
  readonly workspaceId: string;
  readonly config: CloudClientConfig;
  readonly localRoot: string | undefined;
  readonly destinationSecrets: Readonly<Record<string, Record<string, string>>>;
  /** The HTTP client the workspace's objects share (one token cache). */
  readonly api: ApiClient;

  constructor(options: CloudWorkspaceOptions) {
    const { workspaceId, config, localRoot, destinationSecrets, timeoutMs, ...configOptions } = options;
    if (!workspaceId) throw new InputError('workspaceId is required', 'workspaceId');
    const given = Object.values(configOptions).some((value) => value !== undefined && value !== null);
    if (config && given) throw new InputError('give either config or the credential and root fields, not both', 'config');
    this.workspaceId = workspaceId;
    this.config = config ?? new CloudClientConfig(configOptions);
    this.localRoot = localRoot ?? (process.env[ENV.localRoot] || undefined);
    this.destinationSecrets = destinationSecrets ?? {};
    this.api = new ApiClient(this.config, timeoutMs === undefined ? {} : { timeoutMs });
  }

  /**
   * From the environment: the credentials as CloudClientConfig.fromEnv reads them, and the workspace
   * id (when not given) from PLUGBOARD_CLOUD_WORKSPACE_ID; a missing one is a SecretNotFoundError.
   */
  static fromEnv(
    workspaceId?: string,
    apiRoot?: string,
    options: Omit<CloudWorkspaceOptions, keyof CloudClientConfigOptions | 'workspaceId' | 'config'> & { env?: NodeJS.ProcessEnv } = {},
  ): CloudWorkspace {
    const { env = process.env, ...rest } = options;
    const id = workspaceId ?? env[ENV.workspaceId];
    if (!id) throw new SecretNotFoundError(ENV.workspaceId);
    const localRoot = rest.localRoot ?? (env[ENV.localRoot] || undefined);
    return new CloudWorkspace({ ...rest, ...(localRoot ? { localRoot } : {}), workspaceId: id, config: CloudClientConfig.fromEnv(apiRoot, env) });
  }

  get apiRoot(): string {
    return this.config.apiRoot;
  }

  get workspaceUrl(): string {
    return `${this.apiRoot}/workspaces/${this.workspaceId}`;
  }

  /** Checks the workspace is there and the credentials reach it; answers it. */
  connect(): Promise<ApiWorkspace> {
    return this.api.get<ApiWorkspace>(`/workspaces/${this.workspaceId}`, { resource: { type: 'workspace', id: this.workspaceId } });
  }

  async deploySource(name: string, source: ConnectorInput, options: DeployOptions = {}): Promise<CloudSource> {
    const body = await this.deployBody('source', name, source, options);
    const info = await this.api.post<ApiSource>('/sources', body);
    return new CloudSource(this, info.sourceId, info);
  }

  async deployDestination(name: string, destination: ConnectorInput, options: DeployOptions = {}): Promise<CloudDestination> {
    const body = await this.deployBody('destination', name, destination, options);
    const info = await this.api.post<ApiDestination>('/destinations', body);
    return new CloudDestination(this, info.destinationId, info);
  }

  async deployConnection(connectionName: string, options: DeployConnectionOptions): Promise<CloudConnection> {
    if (options.selectedStreams.length === 0) throw new InputError('selectedStreams must name at least one stream', 'selectedStreams');
    const sourceId = typeof options.source === 'string' ? options.source : options.source.sourceId;
    const destinationId = typeof options.destination === 'string' ? options.destination : options.destination.destinationId;
    const created = await this.api.post<ApiConnection>('/connections', {
      name: connectionName,
      sourceId,
      destinationId,
      ...(options.tablePrefix === undefined ? {} : { prefix: options.tablePrefix }),
      configurations: { streams: options.selectedStreams.map((name) => ({ name })) },
    });
    return new CloudConnection(this, created.connectionId, created);
  }

  /** No call is made: the connection loads on first use. */
  getConnection(connectionId: string): CloudConnection {
    return new CloudConnection(this, connectionId);
  }

  /** No call is made: the source loads on first use. */
  getSource(sourceId: string): CloudSource {
    return new CloudSource(this, sourceId);
  }

  /** No call is made: the destination loads on first use. */
  getDestination(destinationId: string): CloudDestination {
    return new CloudDestination(this, destinationId);
  }

  /** Every connection of the workspace (all pages), narrowed by name. */
  async listConnections(options: ListOptions = {}): Promise<CloudConnection[]> {
    const all = await this.listOwn<ApiConnection>('/connections', options);
    return all.map((info) => new CloudConnection(this, info.connectionId, info));
  }

  async listSources(options: ListOptions = {}): Promise<CloudSource[]> {
    const all = await this.listOwn<ApiSource>('/sources', options);
    return all.map((info) => new CloudSource(this, info.sourceId, info));
  }

  async listDestinations(options: ListOptions = {}): Promise<CloudDestination[]> {
    const all = await this.listOwn<ApiDestination>('/destinations', options);
    return all.map((info) => new CloudDestination(this, info.destinationId, info));
  }

  async getCustomSourceDefinition(definitionId: string, definitionType: CustomDefinitionType): Promise<CustomCloudSourceDefinition> {
    assertDefinitionType(definitionType);
    const info = await this.api.get<ConstructorParameters<typeof CustomCloudSourceDefinition>[2]>(
      `${definitionsPath(this.workspaceId, definitionType)}/${definitionId}`,
      {
        resource: { type: 'custom source definition', id: definitionId },
      },
    );
    return new CustomCloudSourceDefinition(this, definitionType, info);
  }

  /** The workspace's custom source definitions of one type (UnsupportedFeatureError where the server lists none of that type). */
  async listCustomSourceDefinitions(definitionType: CustomDefinitionType, options: ListOptions = {}): Promise<CustomCloudSourceDefinition[]> {
    assertDefinitionType(definitionType);
    const path = definitionsPath(this.workspaceId, definitionType);
    const all = await unsupportedIfAbsent(
      this.api.getAll<ConstructorParameters<typeof CustomCloudSourceDefinition>[2]>(path),
      `${definitionType} custom source definitions`,
      this.apiRoot,
    );
    return all.filter((info) => matches(info.name, options)).map((info) => new CustomCloudSourceDefinition(this, definitionType, info));
  }

  /**
   * Publishes a custom source definition: a declarative manifest (`manifestYaml`, YAML text or the
   * object) or a docker image (`dockerImage` and `dockerTag`), exactly one of the two.
   */
  async publishCustomSourceDefinition(
    name: string,
    definition: CustomSourceDefinitionInput,
    options: PublishOptions = {},
  ): Promise<CustomCloudSourceDefinition> {
    // Loaded when first used: the YAML parser is no cost to a program (the CLI) that never publishes.
    const { publishCustomSourceDefinition } = await import('./custom-definition-publish.ts');
    return publishCustomSourceDefinition(this, name, definition, options);
  }

  /** The workspace's organization; on failure a CloudError, or null when raiseOnError is false. */
  async getOrganization(options: { raiseOnError?: boolean } = {}): Promise<CloudOrganization | null> {
    try {
      const info = await this.api.configPost<ConfigOrganizationInfo>('/workspaces/get_organization_info', { workspaceId: this.workspaceId });
      return { organizationId: info.organizationId, organizationName: info.organizationName };
    } catch (cause) {
      if (options.raiseOnError === false) return null;
      throw new CloudError(`the organization of workspace ${this.workspaceId} could not be read: ${cause instanceof Error ? cause.message : String(cause)}`, {
        cause,
      });
    }
  }

  /**
   * Deletes a connection and, if asked, its source and destination. In safe mode (the default) every
   * one of them must be named for deletion (`delete-me` or `deleteme`), checked before anything is deleted.
   */
  async permanentlyDeleteConnection(connection: string | CloudConnection, options: DeleteConnectionOptions = {}): Promise<void> {
    const target = typeof connection === 'string' ? this.getConnection(connection) : connection;
    const info = await target.info();
    const source = options.cascadeDeleteSource ? this.getSource(info.sourceId) : undefined;
    const destination = options.cascadeDeleteDestination ? this.getDestination(info.destinationId) : undefined;
    if (options.safeMode ?? true) {
      assertSafeToDelete('connection', target.connectionId, info.name);
      if (source) assertSafeToDelete('source', source.sourceId, await source.name());
      if (destination) assertSafeToDelete('destination', destination.destinationId, await destination.name());
    }
    await this.api.delete(`/connections/${target.connectionId}`, { resource: { type: 'connection', id: target.connectionId } });
    if (source) await this.deleteIfThere('source', source.sourceId);
    if (destination) await this.deleteIfThere('destination', destination.destinationId);
  }

  /** Deletes a source (and, server-side, the connections using it); safe mode as for connections. */
  async permanentlyDeleteSource(source: string | CloudSource, options: { safeMode?: boolean } = {}): Promise<void> {
    const target = typeof source === 'string' ? this.getSource(source) : source;
    if (options.safeMode ?? true) assertSafeToDelete('source', target.sourceId, await target.name());
    await this.api.delete(`/sources/${target.sourceId}`, { resource: { type: 'source', id: target.sourceId } });
  }

  /** Deletes a destination (and, server-side, its connections); safe mode as for connections. */
  async permanentlyDeleteDestination(destination: string | CloudDestination, options: { safeMode?: boolean } = {}): Promise<void> {
    const target = typeof destination === 'string' ? this.getDestination(destination) : destination;
    if (options.safeMode ?? true) assertSafeToDelete('destination', target.destinationId, await target.name());
    await this.api.delete(`/destinations/${target.destinationId}`, { resource: { type: 'destination', id: target.destinationId } });
  }

  toString(): string {
    return `CloudWorkspace(${this.workspaceId} at ${this.apiRoot})`;
  }

  private async deployBody(kind: 'source' | 'destination', name: string, input: ConnectorInput, options: DeployOptions): Promise<JsonObject> {
    const fullName = options.randomNameSuffix ? `${name} (ID: ${randomBytes(4).toString('hex')})` : name;
    if (options.unique ?? true) {
      const taken = kind === 'source' ? await this.listSources({ name: fullName }) : await this.listDestinations({ name: fullName });
      if (taken.length > 0) throw new DuplicateResourcesError(kind, fullName);
    }
    const { configuration, definitionId } = connectorParts(kind, input);
    return { name: fullName, workspaceId: this.workspaceId, configuration, ...(definitionId === undefined ? {} : { definitionId }) };
  }

  private async listOwn<T extends { name: string; workspaceId: string }>(path: string, options: ListOptions): Promise<T[]> {
    const all = await this.api.getAll<T>(path, { workspaceIds: this.workspaceId });
    return all.filter((item) => item.workspaceId === this.workspaceId && matches(item.name, options));
  }

  /** A cascade may find the resource gone already (another client deleted it): that is what was wanted. */
  private async deleteIfThere(kind: 'source' | 'destination', id: string): Promise<void> {
    try {
      await this.api.delete(`/${kind}s/${id}`, { resource: { type: kind, id } });
    } catch (error) {
      if (!(error instanceof MissingResourceError)) throw error;
    }
  }
}

function matches(name: string, options: ListOptions): boolean {
  return (options.name === undefined || name === options.name) && (!options.nameFilter || options.nameFilter(name));
}

/** `{configuration, definitionId?}` as given, or a bare configuration (which must name its type). */
function connectorParts(kind: 'source' | 'destination', input: ConnectorInput): { configuration: JsonObject; definitionId?: string } {
  const typeField = kind === 'source' ? 'sourceType' : 'destinationType';
  const wrapped = !(typeField in input) && typeof input.configuration === 'object' && input.configuration !== null && !Array.isArray(input.configuration);
  if (wrapped) {
    const { configuration, definitionId } = input as { configuration: JsonObject; definitionId?: unknown };
    if (definitionId !== undefined && typeof definitionId !== 'string') throw new InputError('definitionId must be a string', 'definitionId');
    return { configuration, ...(definitionId === undefined ? {} : { definitionId }) };
  }
  return { configuration: input };
}

function assertDefinitionType(definitionType: string): asserts definitionType is CustomDefinitionType {
  if (definitionType !== 'yaml' && definitionType !== 'docker')
    throw new InputError(`definitionType must be "yaml" or "docker", not ${JSON.stringify(definitionType)}`, 'definitionType');
}

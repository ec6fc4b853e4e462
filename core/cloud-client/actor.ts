import type { JsonObject } from './api-types.ts';
import { Lazy } from './lazy.ts';
import type { CloudWorkspace } from './workspace.ts';

interface ActorInfo {
  name: string;
  workspaceId: string;
  definitionId?: string;
  configuration: JsonObject;
}

export type ActorKind = 'source' | 'destination';

/** The config API's answer to check_connection. */
export interface CheckConnectionResult {
  status: 'succeeded' | 'failed';
  message?: string;
}

/**
 * What sources and destinations share: an id known at once, everything else loaded on first use
 * (one GET, kept until a change refreshes it).
 */
export abstract class CloudActor<T extends ActorInfo> {
  protected readonly cached: Lazy<T>;

  protected constructor(
    readonly workspace: CloudWorkspace,
    readonly kind: ActorKind,
    readonly connectorId: string,
    info?: T,
  ) {
    this.cached = new Lazy(() => this.workspace.api.get<T>(`/${kind}s/${connectorId}`, { resource: { type: kind, id: connectorId } }), info);
  }

  get connectorUrl(): string {
    return `${this.workspace.workspaceUrl}/${this.kind}s/${this.connectorId}`;
  }

  /** The resource as the API answers it (configuration secrets masked), loaded once. */
  info(): Promise<T> {
    return this.cached.get();
  }

  /** Loads it again. */
  refresh(): Promise<T> {
    return this.cached.refresh();
  }

  toString(): string {
    return `Cloud${this.kind === 'source' ? 'Source' : 'Destination'}(${this.connectorId})`;
  }

  async name(): Promise<string> {
    return (await this.info()).name;
  }

  async definitionId(): Promise<string | undefined> {
    return (await this.info()).definitionId;
  }

  async configuration(): Promise<JsonObject> {
    return (await this.info()).configuration;
  }

  async rename(name: string): Promise<this> {
    this.cached.set(await this.workspace.api.patch<T>(`/${this.kind}s/${this.connectorId}`, { name }, { resource: { type: this.kind, id: this.connectorId } }));
    return this;
  }

  /** Changes the configuration: the fields given are merged into the stored ones (a masked secret keeps the stored value). */
  async updateConfig(configuration: JsonObject): Promise<this> {
    const path = `/${this.kind}s/${this.connectorId}`;
    this.cached.set(await this.workspace.api.patch<T>(path, { configuration }, { resource: { type: this.kind, id: this.connectorId } }));
    return this;
  }

  /** Tries the stored configuration (config API check_connection). */
  async checkConnection(): Promise<CheckConnectionResult> {
    const idField = this.kind === 'source' ? 'sourceId' : 'destinationId';
    const answer = await this.workspace.api.configPost<CheckConnectionResult>(
      `/${this.kind}s/check_connection`,
      { [idField]: this.connectorId },
      { resource: { type: this.kind, id: this.connectorId } },
    );
    return { status: answer.status, ...(answer.message === undefined ? {} : { message: answer.message }) };
  }
}

import type { ApiDeclarativeSourceDefinition, ApiDockerSourceDefinition, JsonObject } from './api-types.ts';
import type { CloudWorkspace } from './workspace.ts';

export type CustomDefinitionType = 'yaml' | 'docker';

/** The path of a workspace's custom source definitions of one type, in the official public API. */
export function definitionsPath(workspaceId: string, definitionType: CustomDefinitionType): string {
  return `/workspaces/${workspaceId}/definitions/${definitionType === 'yaml' ? 'declarative_sources' : 'sources'}`;
}

/**
 * A custom source definition of a workspace: a declarative manifest (`yaml`) or a docker image
 * (`docker`). Made from the API's answer; `refresh()` reads it again.
 */
export class CustomCloudSourceDefinition {
  #info: ApiDeclarativeSourceDefinition | ApiDockerSourceDefinition;

  constructor(
    readonly workspace: CloudWorkspace,
    readonly definitionType: CustomDefinitionType,
    info: ApiDeclarativeSourceDefinition | ApiDockerSourceDefinition,
  ) {
    this.#info = info;
  }

  get definitionId(): string {
    return this.#info.id;
  }

  get name(): string {
    return this.#info.name;
  }

  /** The manifest (yaml definitions), as the API answers it. */
  get manifest(): JsonObject | undefined {
    return 'manifest' in this.#info ? this.#info.manifest : undefined;
  }

  /** The manifest's version (yaml definitions): 1 when published, one more at each update. */
  get version(): number | undefined {
    return 'manifest' in this.#info ? this.#info.version : undefined;
  }

  get dockerRepository(): string | undefined {
    return 'dockerRepository' in this.#info ? this.#info.dockerRepository : undefined;
  }

  get dockerImageTag(): string | undefined {
    return 'dockerImageTag' in this.#info ? this.#info.dockerImageTag : undefined;
  }

  async refresh(): Promise<this> {
    this.#info = await this.workspace.api.get(this.path, { resource: this.resource });
    return this;
  }

  /** Replaces the manifest (yaml definitions); a new version. */
  async updateManifest(manifest: JsonObject): Promise<this> {
    this.#info = await this.workspace.api.request<ApiDeclarativeSourceDefinition>('PUT', this.path, { body: { manifest }, resource: this.resource });
    return this;
  }

  /** Deletes the definition (and, server-side, its sources and their connections). */
  async permanentlyDelete(): Promise<void> {
    await this.workspace.api.delete(this.path, { resource: this.resource });
  }

  toString(): string {
    return `CustomCloudSourceDefinition(${this.definitionType} ${this.definitionId})`;
  }

  private get path(): string {
    return `${definitionsPath(this.workspace.workspaceId, this.definitionType)}/${this.definitionId}`;
  }

  private get resource() {
    return { type: 'custom source definition', id: this.definitionId };
  }
}

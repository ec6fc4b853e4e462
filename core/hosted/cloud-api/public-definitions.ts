import { randomUUID } from 'node:crypto';
import { BadRequestError, NotFoundError } from '../../errors.ts';
import type { Store } from '../../stores/types.ts';
import type { PublicDefinition, PublicDefinitionCreateRequest, PublicDefinitionUpdateRequest } from '../types.generated.ts';
import type { ContainerDefinitionRow, ContainerDefinitionTable } from './container-definition-table.ts';
import { workspaceOf } from './organization-workspaces.ts';

/** A definition this API does not store (a type the server runs, a declarative definition), and why it cannot change here. */
export interface FixedDefinition {
  definition: PublicDefinition;
  /** The 400's detail for an update or delete of it. */
  readOnly: string;
}

/**
 * A workspace's source (or destination) definitions through the public cloud API: the types this
 * server runs and, for sources, the workspace's declarative definitions (`fixed`: listed, read, never
 * changed here), and custom definitions naming a Docker image, kept and listed as Airbyte keeps them,
 * though nothing here runs a container (a source or destination of one is a 400: `refuseContainer`).
 */
export class PublicDefinitions {
  constructor(
    private readonly actorType: 'source' | 'destination',
    private readonly table: ContainerDefinitionTable,
    private readonly store: Store,
    private readonly fixed: (workspaceId: string) => Promise<FixedDefinition[]>,
  ) {}

  /** All of them: the official operation takes no paging. */
  async list(organizationId: string, workspaceId: string): Promise<PublicDefinition[]> {
    const workspace = await workspaceOf(this.store, organizationId, workspaceId);
    const fixed = (await this.fixed(workspace.id)).map((entry) => entry.definition);
    return [...fixed, ...(await this.table.list(workspace.id, this.actorType)).map(toPublicDefinition)];
  }

  async get(organizationId: string, workspaceId: string, id: string): Promise<PublicDefinition> {
    const found = await this.find(organizationId, workspaceId, id);
    return 'readOnly' in found ? found.definition : toPublicDefinition(found);
  }

  async create(organizationId: string, workspaceId: string, input: PublicDefinitionCreateRequest): Promise<PublicDefinition> {
    const workspace = await workspaceOf(this.store, organizationId, workspaceId);
    const row: ContainerDefinitionRow = {
      id: randomUUID(),
      organization_id: organizationId,
      workspace_id: workspace.id,
      actor_type: this.actorType,
      name: input.name,
      docker_repository: input.dockerRepository,
      docker_image_tag: input.dockerImageTag,
      documentation_url: input.documentationUrl ?? null,
      created_at: Date.now(),
    };
    await this.table.insert(row);
    return toPublicDefinition(row);
  }

  /** A custom definition's new name and image tag; any other is a 400 (or a 404 when there is none). */
  async update(organizationId: string, workspaceId: string, id: string, input: PublicDefinitionUpdateRequest): Promise<PublicDefinition> {
    const row = this.custom(await this.find(organizationId, workspaceId, id));
    if (!(await this.table.update(row.id, input))) throw notFound(id);
    return toPublicDefinition({ ...row, name: input.name, docker_image_tag: input.dockerImageTag });
  }

  /** Deletes a custom definition; answers it as it was. */
  async delete(organizationId: string, workspaceId: string, id: string): Promise<PublicDefinition> {
    const row = this.custom(await this.find(organizationId, workspaceId, id));
    if (!(await this.table.delete(row.id))) throw notFound(id);
    return toPublicDefinition(row);
  }

  /** A 400 when the id is one of the workspace's custom definitions: a source or destination of it would need a container run. */
  async refuseContainer(workspaceId: string, definitionId: string): Promise<void> {
    const row = await this.table.get(definitionId);
    if (row?.workspace_id === workspaceId && row.actor_type === this.actorType) {
      throw new BadRequestError(
        `Definition ${definitionId} (${row.docker_repository}:${row.docker_image_tag}) names a Docker image, and Plugboard runs no containers: a ${this.actorType} needs a type this server runs (GET /v1/workspaces/${workspaceId}/definitions/${this.actorType}s lists them)`,
        'container_definition',
      );
    }
  }

  /** The workspace's definition of that id: a fixed one, or a stored one of this actor type. */
  private async find(organizationId: string, workspaceId: string, id: string): Promise<FixedDefinition | ContainerDefinitionRow> {
    const workspace = await workspaceOf(this.store, organizationId, workspaceId);
    const wanted = id.toLowerCase();
    const fixed = (await this.fixed(workspace.id)).find((entry) => entry.definition.id === wanted);
    if (fixed) return fixed;
    const row = await this.table.get(wanted);
    if (!row || row.workspace_id !== workspace.id || row.actor_type !== this.actorType) throw notFound(id);
    return row;
  }

  private custom(found: FixedDefinition | ContainerDefinitionRow): ContainerDefinitionRow {
    if ('readOnly' in found) throw new BadRequestError(found.readOnly, 'definition_read_only');
    return found;
  }
}

function toPublicDefinition(row: ContainerDefinitionRow): PublicDefinition {
  return {
    id: row.id,
    name: row.name,
    dockerRepository: row.docker_repository,
    dockerImageTag: row.docker_image_tag,
    ...(row.documentation_url === null ? {} : { documentationUrl: row.documentation_url }),
  };
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`Definition ${id} not found`, 'definition_not_found');
}

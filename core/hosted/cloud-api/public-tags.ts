import { randomUUID } from 'node:crypto';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.ts';
import type { Store } from '../../stores/types.ts';
import type { PublicTag, PublicTagCreateRequest, PublicTagPatchRequest } from '../types.generated.ts';
import { readableWorkspaces, requireWorkspace } from '../permissions/request-access.ts';
import { workspaceOf } from './organization-workspaces.ts';
import { TagLimitError, TagNameTakenError, type TagRow, type TagTable } from './tag-table.ts';

/** As many tags as Airbyte lets a workspace have. */
export const TAGS_PER_WORKSPACE = 100;

/**
 * Tags through the public cloud API: a workspace's names for grouping its connections, each unique in
 * the workspace (a duplicate is a 409), at most 100 a workspace. The name's length (30) and the
 * color's form (RRGGBB) are the request schemas'. Another organization's tag is not found.
 */
export class PublicTags {
  constructor(
    private readonly table: TagTable,
    private readonly store: Store,
  ) {}

  /** The tags of those workspaces (each must be the organization's), else of all its workspaces. */
  async list(organizationId: string, workspaceIds: readonly string[]): Promise<PublicTag[]> {
    for (const id of workspaceIds) await workspaceOf(this.store, organizationId, id);
    const readable = readableWorkspaces(workspaceIds.length > 0 ? workspaceIds.map((id) => id.toLowerCase()) : undefined);
    if (readable?.length === 0) return [];
    return (await this.table.list(organizationId, readable)).map(toPublicTag);
  }

  async get(organizationId: string, id: string): Promise<PublicTag> {
    return toPublicTag(await this.find(organizationId, id));
  }

  async create(organizationId: string, input: PublicTagCreateRequest): Promise<PublicTag> {
    const workspace = await workspaceOf(this.store, organizationId, input.workspaceId);
    const row: TagRow = {
      id: randomUUID(),
      organization_id: organizationId,
      workspace_id: workspace.id,
      name: input.name,
      color: input.color,
      created_at: Date.now(),
    };
    await this.table.insert(row, TAGS_PER_WORKSPACE).catch(refused(input.name));
    return toPublicTag(row);
  }

  /** A new name and color (both, as the official request has them). */
  async update(organizationId: string, id: string, input: PublicTagPatchRequest): Promise<PublicTag> {
    const tag = await this.find(organizationId, id);
    if (!(await this.table.update(tag.id, input).catch(refused(input.name)))) throw notFound(id);
    return toPublicTag({ ...tag, ...input });
  }

  /** Deletes it and takes it off its connections. */
  async delete(organizationId: string, id: string): Promise<void> {
    const tag = await this.find(organizationId, id);
    if (!(await this.table.delete(tag.id))) throw notFound(id);
  }

  private async find(organizationId: string, id: string): Promise<TagRow> {
    const tag = await this.table.get(id.toLowerCase());
    if (!tag || tag.organization_id !== organizationId) throw notFound(id);
    requireWorkspace(tag.workspace_id);
    return tag;
  }
}

export function toPublicTag(row: TagRow): PublicTag {
  return { tagId: row.id, name: row.name, color: row.color, workspaceId: row.workspace_id };
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`Tag ${id} not found`, 'tag_not_found');
}

/** The table's refusals as the API answers them (Airbyte's: a 409 for a taken name, a 400 past the limit). */
function refused(name: string) {
  return (error: unknown): never => {
    if (error instanceof TagNameTakenError) throw new ConflictError(`A tag named "${name}" already exists in the workspace`, 'tag_exists');
    if (error instanceof TagLimitError) throw new BadRequestError(`A workspace has at most ${TAGS_PER_WORKSPACE} tags`, 'tag_limit_reached');
    throw error;
  };
}

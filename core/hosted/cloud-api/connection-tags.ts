import { invalidField } from '../../errors.ts';
import type { PublicConnectionTag } from '../types.generated.ts';
import type { Loc } from './actor-kind.ts';
import type { ConnectionTagTable } from './connection-tag-table.ts';
import { toPublicTag } from './public-tags.ts';
import type { TagTable } from './tag-table.ts';

/**
 * The tags connections carry. A request names them by `tagId` (its name and color are the tag's, as
 * answers give them, so what a client read can be sent back); each must be a tag of the connection's
 * workspace. Answers give each connection's tags by name.
 */
export class ConnectionTags {
  constructor(
    private readonly tags: TagTable,
    private readonly links: ConnectionTagTable,
  ) {}

  /** The ids of the tags given, each checked to be the workspace's (a 400 at the entry at fault). */
  async accepted(workspaceId: string, given: readonly PublicConnectionTag[], loc: Loc): Promise<string[]> {
    const ids = given.map((tag) => tag.tagId.toLowerCase());
    const found = new Set((await this.tags.ofWorkspace(workspaceId, ids)).map((tag) => tag.id));
    const missing = ids.findIndex((id) => !found.has(id));
    if (missing >= 0) {
      throw invalidField(
        [...loc, missing, 'tagId'],
        `no tag ${given[missing]!.tagId} in the connection's workspace (${workspaceId})`,
        'value_error.unknown_tag',
      );
    }
    return ids;
  }

  /** The connection carries these tags from now on. */
  replace(connectionId: string, tagIds: readonly string[]): Promise<void> {
    return this.links.replace(connectionId, tagIds);
  }

  /** Each connection's tags, as answers give them. */
  async of(connectionIds: readonly string[]): Promise<Map<string, PublicConnectionTag[]>> {
    const rows = await this.links.tagsOf(connectionIds);
    return new Map([...rows].map(([id, tags]) => [id, tags.map(toPublicTag)]));
  }
}

import type { ConfigCheckConnectionRead } from '../types.generated.ts';
import type { ActorKind } from './actor-kind.ts';
import { checkConnectionRead } from './check-connection.ts';
import type { ActorChanges, ActorCreateInput, ConfiguredActor, ConfiguredActors } from './configured-actors.ts';
import type { PublicPage } from './public-workspaces.ts';
import type { ResourceFilter } from './resource-filter.ts';
import type { Tombstone, TombstoneTable } from './tombstone-table.ts';

/** What sources and destinations need beyond their own table: where deleted ones go, and which definitions they may not be of. */
export interface ActorSurroundings {
  tombstones: TombstoneTable;
  /** The tombstones of the connections using it, as they are answered now (they are deleted with it). */
  connectionsUsing(actorId: string): Promise<Tombstone[]>;
  /** Throws a 400 when the definition id names a custom definition of a Docker image in the workspace: nothing here runs one. */
  refuseContainer(workspaceId: string, definitionId: string): Promise<void>;
}

/**
 * Sources or destinations through the public cloud API, in its wire shapes (`toPublic`): every answer
 * masks the secrets. Deleting one deletes the connections using it, each leaving its tombstone (the
 * answer it had), which only `includeDeleted` lists.
 */
export abstract class PublicActors<K extends ActorKind, T> {
  constructor(
    readonly actors: ConfiguredActors<K>,
    private readonly checkType: ConfigCheckConnectionRead['jobInfo']['configType'],
    private readonly noun: 'source' | 'destination',
    private readonly around: ActorSurroundings,
  ) {}

  async list(organizationId: string, page: Omit<ResourceFilter, 'tagIds'>): Promise<PublicPage<T>> {
    if (page.includeDeleted) {
      return this.around.tombstones.answers(this.noun, organizationId, page, async (id) => {
        const actor = await this.actors.open(id);
        return actor && this.toPublic(actor);
      });
    }
    const found = await this.actors.list(organizationId, page);
    return { items: found.items.map((actor) => this.toPublic(actor)), more: found.more };
  }

  async get(organizationId: string, id: string): Promise<T> {
    return this.toPublic(await this.actors.get(organizationId, id));
  }

  async create(organizationId: string, input: ActorCreateInput): Promise<T> {
    if (input.definitionId !== undefined) await this.around.refuseContainer(input.workspaceId.toLowerCase(), input.definitionId.toLowerCase());
    return this.created(organizationId, input);
  }

  /** The fields given; configuration fields merged into the stored ones. */
  async patch(organizationId: string, id: string, input: ActorChanges): Promise<T> {
    return this.toPublic(await this.actors.update(organizationId, id, input, 'patch'));
  }

  /** A new name and whole configuration. */
  async put(organizationId: string, id: string, input: Required<Pick<ActorChanges, 'name' | 'configuration'>>): Promise<T> {
    return this.toPublic(await this.actors.update(organizationId, id, input, 'put'));
  }

  /** Deletes it and the connections using it, leaving their tombstones; answers the connections' ids. */
  async delete(organizationId: string, id: string): Promise<string[]> {
    const actor = await this.actors.get(organizationId, id);
    const tombstones = await this.tombstonesOf(actor);
    return this.actors.delete(actor, (tx) => this.around.tombstones.bury(tx, tombstones, Date.now()));
  }

  /** Its tombstone and its connections': what stays of them once it is deleted. */
  protected async tombstonesOf(actor: ConfiguredActor<K>): Promise<Tombstone[]> {
    const own: Tombstone = {
      kind: this.noun,
      id: actor.id,
      organizationId: actor.organizationId,
      workspaceId: actor.workspaceId,
      createdAt: actor.createdAt,
      answer: this.toPublic(actor) as object,
    };
    return [own, ...(await this.around.connectionsUsing(actor.id))];
  }

  /** Makes it (the input's definition known to be none of a Docker image). */
  protected async created(organizationId: string, input: ActorCreateInput): Promise<T> {
    return this.toPublic(await this.actors.create(organizationId, input));
  }

  /**
   * The config API's check: the stored configuration against its system, the verdict in the answer.
   * Secrets entered for another endpoint are a 400 `secret_required`: the check would send them there.
   */
  async checkConnection(organizationId: string, id: string): Promise<ConfigCheckConnectionRead> {
    const actor = await this.actors.get(organizationId, id);
    this.actors.assertSecretsBound(actor);
    return checkConnectionRead(this.checkType, actor.id, async () => {
      const renewed = await actor.kind.check(actor.configuration, actor);
      if (renewed) await this.actors.keepRenewed(actor, renewed);
    });
  }

  protected abstract toPublic(actor: ConfiguredActor<K>): T;
}

/** Epoch seconds, as the public API's `createdAt`. */
export function epochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

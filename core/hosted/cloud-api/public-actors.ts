import type { ConfigCheckConnectionRead } from '../types.generated.ts';
import type { ActorKind } from './actor-kind.ts';
import { checkConnectionRead } from './check-connection.ts';
import type { ActorChanges, ActorCreateInput, ConfiguredActor, ConfiguredActors } from './configured-actors.ts';
import type { PublicPage } from './public-workspaces.ts';

/**
 * Sources or destinations through the public cloud API, in its wire shapes (`toPublic`): every answer
 * masks the secrets. Deleting one deletes the connections using it.
 */
export abstract class PublicActors<K extends ActorKind, T> {
  constructor(
    readonly actors: ConfiguredActors<K>,
    private readonly checkType: ConfigCheckConnectionRead['jobInfo']['configType'],
  ) {}

  async list(organizationId: string, page: { workspaceIds?: string[]; limit: number; offset: number }): Promise<PublicPage<T>> {
    const found = await this.actors.list(organizationId, page);
    return { items: found.items.map((actor) => this.toPublic(actor)), more: found.more };
  }

  async get(organizationId: string, id: string): Promise<T> {
    return this.toPublic(await this.actors.get(organizationId, id));
  }

  async create(organizationId: string, input: ActorCreateInput): Promise<T> {
    return this.toPublic(await this.actors.create(organizationId, input));
  }

  /** The fields given; configuration fields merged into the stored ones. */
  async patch(organizationId: string, id: string, input: ActorChanges): Promise<T> {
    return this.toPublic(await this.actors.update(organizationId, id, input, 'patch'));
  }

  /** A new name and whole configuration. */
  async put(organizationId: string, id: string, input: Required<Pick<ActorChanges, 'name' | 'configuration'>>): Promise<T> {
    return this.toPublic(await this.actors.update(organizationId, id, input, 'put'));
  }

  /** Deletes it and the connections using it; answers the connections' ids. */
  delete(organizationId: string, id: string): Promise<string[]> {
    return this.actors.delete(organizationId, id);
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

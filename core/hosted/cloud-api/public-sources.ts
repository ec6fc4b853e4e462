import type { OAuthSecrets } from '../oauth/oauth-secrets.ts';
import { credentialKeys, type OAuthTokens } from '../oauth/oauth-tokens.ts';
import { invalidSecretId } from '../oauth/oauth-secrets.ts';
import type { OAuthCredentials } from '../../sdk/index.ts';
import type { PublicSource } from '../types.generated.ts';
import type { ActorChanges, ActorCreateInput, ConfiguredActor } from './configured-actors.ts';
import { mergeConfiguration } from './configuration-secrets.ts';
import type { SourceActors } from './declarative-source-actors.ts';
import { type ActorSurroundings, epochSeconds, PublicActors } from './public-actors.ts';
import type { SourceKind } from './source-kinds.ts';
import type { Tombstone } from './tombstone-table.ts';

/**
 * Sources: a configuration of any type SourceKinds knows, its credentials checked with the connector's check before it is stored.
 * A `secretId` (what an OAuth consent granted: see core/hosted/oauth/) gives the credentials instead, in the type's shape.
 */
export class PublicSources extends PublicActors<SourceKind, PublicSource> {
  constructor(
    private readonly sources: SourceActors,
    around: ActorSurroundings,
    /** The OAuth secrets `secretId` names; without them, a secretId is unknown. */
    private readonly secrets?: OAuthSecrets,
    /** Sources' renewed OAuth tokens: which grants are gone. */
    private readonly tokens?: Pick<OAuthTokens, 'needingReauth' | 'replaced'>,
  ) {
    super(sources, 'check_connection_source', 'source', around);
  }

  /** The workspace's sources whose OAuth grant is gone (the provider refused a refresh for good): only a reconnect (PATCH with a secretId) helps. */
  async needingReauthorization(organizationId: string, workspaceId: string): Promise<PublicSource[]> {
    const found = await this.list(organizationId, { workspaceIds: [workspaceId], limit: 100_000, offset: 0 });
    const gone = (await this.tokens?.needingReauth(found.items.map((source) => credentialKeys.source(source.sourceId)))) ?? new Set<string>();
    return found.items.filter((source) => gone.has(credentialKeys.source(source.sourceId)));
  }

  /** With `secretId`: the secret's credentials in the configuration (the other fields kept), the secret taken once the source is stored. */
  protected override async created(organizationId: string, input: ActorCreateInput & { secretId?: string }): Promise<PublicSource> {
    const { secretId, ...rest } = input;
    if (secretId === undefined) return super.created(organizationId, rest);
    const kind = await this.sources.kindToCreate(organizationId, rest);
    return this.spend(secretId, { organizationId, workspaceId: rest.workspaceId.toLowerCase(), kind }, (credentials) =>
      super.created(organizationId, { ...rest, configuration: withCredentials(kind, rest.configuration, credentials) }),
    );
  }

  /** The tombstones of the sources of a type and of their connections (a declarative definition's, deleted with it). */
  async tombstonesOfType(type: string): Promise<Tombstone[]> {
    const tombstones: Tombstone[] = [];
    for (const id of await this.sources.idsOfType(type)) {
      const source = await this.sources.open(id);
      if (source) tombstones.push(...(await this.tombstonesOf(source)));
    }
    return tombstones;
  }

  /**
   * With `secretId`: the secret's credentials replace the source's, the fields given merged as a PATCH
   * merges them. The stored secrets stay masked in what is sent on, so a change of endpoint still
   * asks for them (secret_required), as any PATCH would.
   */
  override async patch(organizationId: string, id: string, input: ActorChanges & { secretId?: string }): Promise<PublicSource> {
    const { secretId, ...changes } = input;
    if (secretId === undefined) return super.patch(organizationId, id, changes);
    const source = await this.actors.get(organizationId, id);
    return this.spend(secretId, { organizationId, workspaceId: source.workspaceId, kind: source.kind }, async (credentials) => {
      const merged = mergeConfiguration(this.actors.masked(source), changes.configuration ?? {});
      const configuration = withCredentials(source.kind, merged, credentials);
      const updated = this.toPublic(await this.actors.update(organizationId, id, { ...changes, configuration }, 'put'));
      // Reconnected: the old grant's renewed tokens and its needs_reauth mark go with it.
      await this.tokens?.replaced(credentialKeys.source(source.id), credentials);
      return updated;
    });
  }

  protected toPublic(source: ConfiguredActor<SourceKind>): PublicSource {
    return {
      sourceId: source.id,
      name: source.name,
      sourceType: source.kind.name,
      definitionId: source.kind.definitionId,
      workspaceId: source.workspaceId,
      configuration: this.actors.masked(source),
      createdAt: epochSeconds(source.createdAt),
    };
  }

  private spend<T>(
    secretId: string,
    target: { organizationId: string; workspaceId: string; kind: SourceKind },
    use: (credentials: OAuthCredentials) => Promise<T>,
  ): Promise<T> {
    if (!this.secrets) throw invalidSecretId('the secret id is unknown, used or expired');
    const binding = { flow: 'public_api' as const, organizationId: target.organizationId, workspaceId: target.workspaceId, sourceType: target.kind.name };
    return this.secrets.spend(secretId, binding, use);
  }
}

/** The configuration with the consent's credentials in the kind's shape; a kind without an OAuth flow has no secret to take. */
function withCredentials(kind: SourceKind, configuration: Record<string, unknown>, credentials: OAuthCredentials): Record<string, unknown> {
  if (!kind.oauthConfiguration) throw invalidSecretId(`source type ${kind.name} has no OAuth flow`);
  return kind.oauthConfiguration(configuration, credentials);
}

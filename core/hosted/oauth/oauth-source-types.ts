import { invalidField } from '../../errors.ts';
import type { OAuth2Settings } from '../../sdk/index.ts';
import type { Store } from '../../stores/types.ts';
import type { Loc } from '../cloud-api/actor-kind.ts';
import { definitionIdOf } from '../cloud-api/declarative-names.ts';
import type { DeclarativeSourceTypes } from '../cloud-api/declarative-source-types.ts';
import type { DeclarativeTable } from '../cloud-api/declarative-table.ts';
import type { SourceKind, SourceKinds } from '../cloud-api/source-kinds.ts';
import type { AppSourceType } from './oauth-apps.ts';

/** A source type whose connector declares an OAuth flow, as the flows use it. */
export interface OAuthSourceType extends AppSourceType {
  /** The connector type that reads it (a declarative definition's at its current version). */
  connectorType: string;
  settings: OAuth2Settings;
  kind: SourceKind;
}

/** Where a name is looked up: a workspace sees its own declarative definitions; an organization those of its workspaces, by id. */
export interface TypeScope {
  organizationId: string;
  workspaceId?: string;
}

/**
 * The source types that can be connected by consent: every kind whose connector declares
 * `auth.oauth2` (slack, google-drive, chat, file-storage, a plugin's, a workspace's declarative
 * definition). Apps of one family serve each other's flows: `slack` and `chat` are one connector.
 */
export class OAuthSourceTypes {
  constructor(
    private readonly kinds: SourceKinds,
    private readonly declarative: DeclarativeSourceTypes,
    private readonly definitions: DeclarativeTable,
    private readonly store: Store,
  ) {}

  /** The type `name` stands for in the scope; an unknown one, or one without an OAuth flow, is a 400 at `loc`. */
  async resolve(scope: TypeScope, name: string, loc: Loc): Promise<OAuthSourceType> {
    const kind = await this.kindNamed(scope, name);
    if (!kind) throw invalidField(loc, `unknown source type "${name}"; ${this.offered()}`, 'value_error.unknown_type');
    if (!kind.oauth2)
      throw invalidField(loc, `source type "${name}" has no OAuth flow (its connector declares none); ${this.offered()}`, 'value_error.oauth_not_supported');
    return { name: kind.name, family: familyOf(kind), connectorType: kind.connectorType, settings: kind.oauth2, kind };
  }

  /** A loaded type keeps its name; else a declarative definition the scope reaches, by `declarative-<id>` or (in a workspace) its manifest's type. */
  private async kindNamed(scope: TypeScope, name: string): Promise<SourceKind | undefined> {
    const id = definitionIdOf(name);
    if (id === undefined) {
      const loaded = this.kinds.byName(name);
      if (loaded || scope.workspaceId === undefined) return loaded;
      const row = await this.definitions.byType(scope.workspaceId, name);
      return row && this.declarativeKind(scope, row.id);
    }
    return this.declarativeKind(scope, id);
  }

  private async declarativeKind(scope: TypeScope, id: string): Promise<SourceKind | undefined> {
    const runnable = await this.declarative.refresh(id);
    if (!runnable) return undefined;
    if (scope.workspaceId !== undefined) return runnable.workspaceId === scope.workspaceId ? runnable.kind : undefined;
    const workspace = await this.store.getWorkspace(runnable.workspaceId);
    return workspace?.organization_id === scope.organizationId ? runnable.kind : undefined;
  }

  private offered(): string {
    const names = this.kinds.names().filter((name) => this.kinds.byName(name)?.oauth2);
    return `types with an OAuth flow: ${names.join(', ')}, and declarative definitions that declare auth.oauth2`;
  }
}

/** What an app serves besides its own name: a loaded connector's every name (slack is chat); a definition only itself. */
function familyOf(kind: SourceKind): string {
  return definitionIdOf(kind.name) === undefined ? kind.connectorType : kind.name;
}

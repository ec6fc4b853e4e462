import { invalidField } from '../../errors.ts';
import type { Store } from '../../stores/types.ts';
import type { Loc } from './actor-kind.ts';
import type { ActorTable } from './actor-table.ts';
import type { ConfigurationVault } from './configuration-vault.ts';
import { type ActorChanges, type ActorCreateInput, type ConfiguredActor, ConfiguredActors } from './configured-actors.ts';
import { declarativeSourceType, definitionIdOf } from './declarative-names.ts';
import type { DeclarativeSourceTypes } from './declarative-source-types.ts';
import type { DeclarativeTable } from './declarative-table.ts';
import { workspaceOf } from './organization-workspaces.ts';
import type { PublicPage } from './public-workspaces.ts';
import type { SourceKind, SourceKinds } from './source-kinds.ts';

type Page = { workspaceIds?: string[]; limit: number; offset: number };

const SOURCE_TYPE: Loc = ['body', 'configuration', 'sourceType'];

/**
 * Sources, with the published declarative definitions among their types. A definition is one
 * workspace's: a source of another workspace cannot name it (as if it did not exist). A source of
 * one is read with the definition's current version, registered on this instance first when another
 * instance published or updated it.
 */
export class SourceActors extends ConfiguredActors<SourceKind> {
  constructor(
    table: ActorTable,
    private readonly sourceKinds: SourceKinds,
    vault: ConfigurationVault,
    private readonly workspaces: Store,
    private readonly definitions: DeclarativeTable,
    private readonly declarative: DeclarativeSourceTypes,
  ) {
    super(table, sourceKinds, vault, workspaces, 'source');
  }

  override async list(organizationId: string, page: Page): Promise<PublicPage<ConfiguredActor<SourceKind>>> {
    const found = await super.list(organizationId, page);
    return { ...found, items: await this.current(found.items) };
  }

  /** `get`, `update` and `delete` read through here too. */
  override async open(id: string): Promise<ConfiguredActor<SourceKind> | undefined> {
    const actor = await super.open(id);
    return actor && (await this.current([actor]))[0];
  }

  override async kindOf(id: string): Promise<SourceKind | undefined> {
    const kind = await super.kindOf(id);
    return kind && this.currentKind(kind);
  }

  /** A definition named by `definitionId`, `sourceType` `declarative-<id>` or its manifest's type: the source's workspace's only. */
  override async create(organizationId: string, input: ActorCreateInput): Promise<ConfiguredActor<SourceKind>> {
    return super.create(organizationId, await this.namedInput(organizationId, input));
  }

  /** The kind a create of `input` makes, named as `create` names it (before anything is checked or stored). */
  async kindToCreate(organizationId: string, input: ActorCreateInput): Promise<SourceKind> {
    const named = await this.namedInput(organizationId, input);
    return this.resolve(named.configuration, named.definitionId);
  }

  private async namedInput(organizationId: string, input: ActorCreateInput): Promise<ActorCreateInput> {
    const workspace = await workspaceOf(this.workspaces, organizationId, input.workspaceId);
    if (input.definitionId !== undefined) {
      const why = `no source type has definition id ${input.definitionId}`;
      await this.visibleIn(workspace.id, input.definitionId.toLowerCase(), ['body', 'definitionId'], why, 'value_error.unknown_definition');
    }
    return { ...input, configuration: await this.namedIn(workspace.id, input.configuration) };
  }

  override async update(organizationId: string, id: string, changes: ActorChanges, mode: 'patch' | 'put'): Promise<ConfiguredActor<SourceKind>> {
    if (changes.configuration === undefined) return super.update(organizationId, id, changes, mode);
    const { workspaceId } = await this.get(organizationId, id);
    return super.update(organizationId, id, { ...changes, configuration: await this.namedIn(workspaceId, changes.configuration) }, mode);
  }

  /** The configuration with a declarative `sourceType` as sources are answered (`declarative-<id>`), the definition registered. */
  private async namedIn(workspaceId: string, configuration: Record<string, unknown>): Promise<Record<string, unknown>> {
    const named = configuration.sourceType;
    if (typeof named !== 'string') return configuration;
    const id = definitionIdOf(named);
    if (id !== undefined) {
      await this.visibleIn(workspaceId, id, SOURCE_TYPE, `unknown sourceType "${named}"`, 'value_error.unknown_type');
      return configuration;
    }
    // A loaded type keeps its name, even beside a definition published before it was loaded.
    if (this.sourceKinds.byName(named)) return configuration;
    const row = await this.definitions.byType(workspaceId, named);
    if (!row) return configuration;
    await this.declarative.refresh(row.id);
    return { ...configuration, sourceType: declarativeSourceType(row.id) };
  }

  /** Registers the definition of that id when the workspace has it; another workspace's is refused as unknown. */
  private async visibleIn(workspaceId: string, id: string, loc: Loc, why: string, type: string): Promise<void> {
    const runnable = await this.declarative.refresh(id);
    if (runnable && runnable.workspaceId !== workspaceId) throw invalidField(loc, why, type);
  }

  /** Each actor with its kind's current version (its definition looked up once per call). */
  private async current(actors: ConfiguredActor<SourceKind>[]): Promise<ConfiguredActor<SourceKind>[]> {
    const kinds = new Map<string, Promise<SourceKind>>();
    return Promise.all(
      actors.map(async (actor) => {
        if (!kinds.has(actor.kind.name)) kinds.set(actor.kind.name, this.currentKind(actor.kind));
        return { ...actor, kind: await kinds.get(actor.kind.name)! };
      }),
    );
  }

  /** A declarative kind at the version stored now; a definition gone stands as a type not loaded, with its own id. */
  private async currentKind(kind: SourceKind): Promise<SourceKind> {
    const id = definitionIdOf(kind.name);
    if (id === undefined) return kind;
    return (await this.declarative.refresh(id))?.kind ?? { ...this.sourceKinds.unloaded(kind.name), definitionId: id };
  }
}

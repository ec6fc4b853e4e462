import { randomUUID } from 'node:crypto';
import { ConflictError, invalidField, NotFoundError, ValidationError } from '../../errors.ts';
import type { EgressPolicy } from '../../security/egress/egress-policy.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { Store } from '../../stores/types.ts';
import type { DeclarativeSourceDefinition, DeclarativeSourceDefinitionCreateRequest, DeclarativeSourceDefinitionUpdateRequest } from '../types.generated.ts';
import { airbyteManifestIssues } from './airbyte-manifest.ts';
import { manifestIssues } from './declarative-checks.ts';
import { isAirbyteManifest, type Manifest, manifestObject } from './declarative-manifest.ts';
import { declarativeSourceType } from './declarative-names.ts';
import type { DeclarativeSourceTypes } from './declarative-source-types.ts';
import { type DeclarativeRow, type DeclarativeTable, DeclarativeTypeTakenError } from './declarative-table.ts';
import { workspaceOf } from './organization-workspaces.ts';
import type { PublicPage } from './public-workspaces.ts';
import type { Tombstone } from './tombstone-table.ts';

const MANIFEST = ['body', 'manifest'];

/** What stays of the sources (and their connections) a definition takes with it when it is deleted. */
export interface DeletedSources {
  tombstonesOfType(sourceType: string): Promise<Tombstone[]>;
  bury(tx: SqlDriver, tombstones: readonly Tombstone[], deletedAt: number): Promise<void>;
}

/**
 * A workspace's custom declarative source definitions through the public cloud API: an Airbyte
 * declarative manifest (run by the interpreter) or a Plugboard declarative connector manifest, checked
 * before it is stored, registered in the runtime at once, so sources of the workspace can be made of
 * it (see SourceActors).
 */
export class PublicDeclarativeSources {
  constructor(
    private readonly table: DeclarativeTable,
    private readonly types: DeclarativeSourceTypes,
    private readonly store: Store,
    /** The source types of this server (`chat`, `slack`...), which no manifest may take. */
    private readonly sourceTypes: () => string[],
    /** Where a manifest's `defaultBaseUrl` may point. */
    private readonly egress: EgressPolicy,
    private readonly deleted: DeletedSources,
  ) {}

  async list(organizationId: string, workspaceId: string, page: { limit: number; offset: number }): Promise<PublicPage<DeclarativeSourceDefinition>> {
    const workspace = await workspaceOf(this.store, organizationId, workspaceId);
    const rows = await this.table.list(workspace.id, { ...page, limit: page.limit + 1 });
    return { items: rows.slice(0, page.limit).map(toPublic), more: rows.length > page.limit };
  }

  async get(organizationId: string, workspaceId: string, id: string): Promise<DeclarativeSourceDefinition> {
    return toPublic(await this.find(organizationId, workspaceId, id));
  }

  async create(organizationId: string, workspaceId: string, input: DeclarativeSourceDefinitionCreateRequest): Promise<DeclarativeSourceDefinition> {
    const workspace = await workspaceOf(this.store, organizationId, workspaceId);
    if (input.workspaceId !== undefined && input.workspaceId.toLowerCase() !== workspace.id) {
      throw invalidField(['body', 'workspaceId'], 'must be the workspace of the path', 'value_error.workspace_mismatch');
    }
    const manifest = await this.accepted(input.manifest);
    const now = Date.now();
    const id = randomUUID();
    const row: DeclarativeRow = {
      id,
      organization_id: organizationId,
      workspace_id: workspace.id,
      name: input.name,
      connector_type: typeOf(manifest, id),
      manifest,
      version: 1,
      created_at: now,
      updated_at: now,
    };
    await this.table.insert(row).catch(typeTaken(row.connector_type));
    this.types.register(row);
    return toPublic(row);
  }

  /**
   * A new manifest, one version up; the definition's sources read with it from their next call, those
   * whose secrets were entered for another base URL or auth only once the secrets are given again.
   */
  async update(organizationId: string, workspaceId: string, id: string, input: DeclarativeSourceDefinitionUpdateRequest): Promise<DeclarativeSourceDefinition> {
    const found = await this.find(organizationId, workspaceId, id);
    const manifest = await this.accepted(input.manifest);
    const type = typeOf(manifest, found.id);
    const row = await this.table.replaceManifest(found.id, manifest, type, Date.now(), declarativeSourceType(found.id)).catch(typeTaken(type));
    if (!row) throw notFound(id);
    this.types.register(row);
    return toPublic(row);
  }

  /** Deletes it and, as Airbyte does, its sources and their connections (leaving their tombstones); answers it as it was. */
  async delete(organizationId: string, workspaceId: string, id: string): Promise<DeclarativeSourceDefinition> {
    const found = await this.find(organizationId, workspaceId, id);
    const type = declarativeSourceType(found.id);
    const tombstones = await this.deleted.tombstonesOfType(type);
    await this.table.deleteWithSources(found.id, type, (tx) => this.deleted.bury(tx, tombstones, Date.now()));
    this.types.forget(found.id);
    return toPublic(found);
  }

  /**
   * The manifest as an object, every problem of it a 400 issue: an Airbyte manifest as the interpreter
   * loads it, Plugboard's own as a loaded connector is checked. A base URL the egress policy refuses is
   * a 400 `egress_refused` (an Airbyte manifest's URLs are judged as its reads connect).
   */
  private async accepted(given: Manifest | string): Promise<Manifest> {
    const manifest = manifestObject(given, MANIFEST);
    const issues = isAirbyteManifest(manifest) ? airbyteManifestIssues(manifest, MANIFEST) : manifestIssues(manifest, this.sourceTypes());
    if (issues.length > 0) throw new ValidationError(issues);
    if (typeof manifest.defaultBaseUrl === 'string') await this.egress.checkUrl(manifest.defaultBaseUrl, 'manifest.defaultBaseUrl');
    return manifest;
  }

  /** The workspace's definition; another workspace's, or one of another organization, is not found. */
  private async find(organizationId: string, workspaceId: string, id: string): Promise<DeclarativeRow> {
    const workspace = await workspaceOf(this.store, organizationId, workspaceId);
    const row = await this.table.get(id.toLowerCase());
    if (!row || row.workspace_id !== workspace.id) throw notFound(id);
    return row;
  }
}

/** The type a source may name the definition by: a Plugboard manifest's own; an Airbyte manifest has none of its own (all are DeclarativeSource). */
function typeOf(manifest: Manifest, id: string): string {
  return isAirbyteManifest(manifest) ? declarativeSourceType(id) : (manifest.type as string);
}

function toPublic(row: DeclarativeRow): DeclarativeSourceDefinition {
  return { id: row.id, name: row.name, manifest: row.manifest, version: row.version };
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`Declarative source definition ${id} not found`, 'declarative_source_definition_not_found');
}

function typeTaken(type: string) {
  return (error: unknown): never => {
    if (error instanceof DeclarativeTypeTakenError) {
      throw new ConflictError(`Another declarative source definition of the workspace has the type "${type}"`, 'declarative_source_type_exists');
    }
    throw error;
  };
}

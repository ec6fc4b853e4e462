import { ConnectorLoadError } from '../../errors.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { createAjv } from '../../schema/ajv.ts';
import type { EgressPolicy } from '../../security/egress/egress-policy.ts';
import { isAirbyteManifest } from './declarative-manifest.ts';
import { runnableDefinition } from './declarative-definition.ts';
import { declarativeEndpoint } from './declarative-endpoint.ts';
import type { Manifest } from './declarative-manifest.ts';
import { declarativeConnectorType, declarativeSourceType, definitionIdOf } from './declarative-names.ts';
import type { DeclarativeRow, DeclarativeTable } from './declarative-table.ts';
import { manifestSourceKind } from './manifest-source-kind.ts';
import { connectorSourceKind, type CustomSourceKinds, plugboardCredentials, plugboardShape, type SourceKind, tokenUrlEndpoint } from './source-kinds.ts';
import type { UpstreamCheck } from './upstream-check.ts';

/** A published definition as this instance runs it: registered in the runtime at `version`. */
export interface RunnableDefinition {
  id: string;
  workspaceId: string;
  version: number;
  /** Its sources' kind: `sourceType` `declarative-<id>`, read with this version's connector. */
  kind: SourceKind;
}

/**
 * The published declarative definitions this instance runs, each registered in the runtime at the
 * version the database holds. Several instances share the database: one that did not publish a
 * definition (or an update of it) registers it when it first needs it, by `refresh`.
 */
export class DeclarativeSourceTypes implements CustomSourceKinds {
  private readonly runnable = new Map<string, RunnableDefinition>();
  private readonly ajv = createAjv();

  constructor(
    private readonly table: DeclarativeTable,
    private readonly runtime: Runtime,
    private readonly check: UpstreamCheck,
    /** The policy tenant URLs obey: an Airbyte manifest's requests go where its configuration says. */
    private readonly egress: EgressPolicy,
  ) {}

  /** The definition as stored now, registered; undefined (forgotten here too) when it is gone or no longer loads on this server. */
  async refresh(id: string): Promise<RunnableDefinition | undefined> {
    const row = await this.table.get(id);
    if (!row) return this.forget(id);
    try {
      return this.register(row);
    } catch (error) {
      // Published under the checks of an earlier Plugboard: its sources stand as a type not loaded.
      if (error instanceof ConnectorLoadError) return this.forget(id);
      throw error;
    }
  }

  /** Registers the row's version in the runtime, once per version on this instance; an older row than the one known changes nothing. */
  register(row: DeclarativeRow): RunnableDefinition {
    const known = this.runnable.get(row.id);
    if (known && known.version >= row.version) return known;
    const connectorType = declarativeConnectorType(row.id, row.version);
    const shape = { name: declarativeSourceType(row.id), definitionId: row.id };
    const kind = isAirbyteManifest(row.manifest)
      ? this.airbyteKind(row.manifest, connectorType, shape)
      : this.plugboardKind(row.manifest, connectorType, shape);
    const runnable = { id: row.id, workspaceId: row.workspace_id, version: row.version, kind };
    this.runnable.set(row.id, runnable);
    return runnable;
  }

  /** A Plugboard declarative manifest's kind: the definition's endpoint, and a token URL the credentials name. */
  private plugboardKind(manifest: Manifest, connectorType: string, shape: { name: string; definitionId: string }): SourceKind {
    if (!this.runtime.hasConnector(connectorType)) this.runtime.registerConnector(runnableDefinition(manifest, connectorType), { listed: false });
    const plugin = this.runtime.plugin(connectorType);
    const endpoint = declarativeEndpoint(manifest);
    const kind = connectorSourceKind(this.ajv, this.check, plugin, {
      ...shape,
      schema: plugboardShape(plugin, shape.name),
      credentialsOf: plugboardCredentials,
    });
    return { ...kind, endpoint: (configuration: Record<string, unknown>) => ({ ...endpoint, ...tokenUrlEndpoint(configuration) }) };
  }

  /** An Airbyte manifest's kind: read by the interpreter, its configuration in the spec's shape. */
  private airbyteKind(manifest: Manifest, connectorType: string, shape: { name: string; definitionId: string }): SourceKind {
    if (!this.runtime.hasConnector(connectorType)) this.runtime.registerManifest(manifest, connectorType, { listed: false });
    return manifestSourceKind(this.runtime, this.runtime.plugin(connectorType), this.egress, { ...shape, manifest });
  }

  forget(id: string): undefined {
    this.runnable.delete(id);
    return undefined;
  }

  byName(name: string): SourceKind | undefined {
    const id = definitionIdOf(name);
    return id === undefined ? undefined : this.runnable.get(id)?.kind;
  }

  byDefinitionId(definitionId: string): SourceKind | undefined {
    return this.runnable.get(definitionId.toLowerCase())?.kind;
  }
}

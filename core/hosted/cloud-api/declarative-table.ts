import type { SqlDriver } from '../../stores/sql-driver.ts';
import { declarativeEndpoint } from './declarative-endpoint.ts';
import { declarativeSourceType } from './declarative-names.ts';
import type { Manifest } from './declarative-manifest.ts';
import { uniqueOr } from './sql-columns.ts';

/** A published declarative source definition. */
export interface DeclarativeRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  name: string;
  /** The manifest's `type`, unique in the workspace. */
  connector_type: string;
  manifest: Manifest;
  version: number;
  /** Epoch milliseconds. */
  created_at: number;
  updated_at: number;
}

interface Row extends Omit<DeclarativeRow, 'manifest' | 'version' | 'created_at' | 'updated_at'> {
  manifest: string;
  /** PostgreSQL answers a BIGINT as a string. */
  version: number | string;
  created_at: number | string;
  updated_at: number | string;
}

/** Another definition of the workspace has the manifest's type. */
export class DeclarativeTypeTakenError extends Error {}

/** The rows of cloud_declarative_sources. */
export class DeclarativeTable {
  constructor(private readonly driver: SqlDriver) {}

  async insert(row: DeclarativeRow): Promise<void> {
    await uniqueType(
      this.driver.run(
        `INSERT INTO cloud_declarative_sources (id, organization_id, workspace_id, name, connector_type, manifest, version, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          row.id,
          row.organization_id,
          row.workspace_id,
          row.name,
          row.connector_type,
          JSON.stringify(row.manifest),
          row.version,
          row.created_at,
          row.updated_at,
        ],
      ),
    );
  }

  async get(id: string): Promise<DeclarativeRow | undefined> {
    const row = await this.driver.get<Row>('SELECT * FROM cloud_declarative_sources WHERE id = ?', [id]);
    return row && toDeclarativeRow(row);
  }

  /** The workspace's definition of that manifest type. */
  async byType(workspaceId: string, type: string): Promise<DeclarativeRow | undefined> {
    const row = await this.driver.get<Row>('SELECT * FROM cloud_declarative_sources WHERE workspace_id = ? AND connector_type = ?', [workspaceId, type]);
    return row && toDeclarativeRow(row);
  }

  async list(workspaceId: string, page: { limit: number; offset: number }): Promise<DeclarativeRow[]> {
    const rows = await this.driver.all<Row>('SELECT * FROM cloud_declarative_sources WHERE workspace_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?', [
      workspaceId,
      page.limit,
      page.offset,
    ]);
    return rows.map(toDeclarativeRow);
  }

  /**
   * Binds the sources whose secrets have no recorded endpoint to the one their definition names now.
   * Racing a definition update is harmless: that binds them to the endpoint it replaces, in its own
   * transaction, and whichever writes first leaves no NULL for the other.
   */
  async bindUnboundSources(): Promise<void> {
    const rows = await this.driver.all<Row>('SELECT * FROM cloud_declarative_sources');
    for (const definition of rows.map(toDeclarativeRow)) {
      await this.driver.run('UPDATE cloud_sources SET secret_endpoint = ? WHERE type = ? AND secret_endpoint IS NULL', [
        JSON.stringify(declarativeEndpoint(definition.manifest)),
        declarativeSourceType(definition.id),
      ]);
    }
  }

  /**
   * The new manifest, one version up (counted by the database, so two updates at once make two
   * versions); undefined when the row is gone. Its sources (`sourceType`) whose secrets are bound to
   * no recorded endpoint are bound to the one the old manifest names, in the same transaction.
   */
  replaceManifest(id: string, manifest: Manifest, type: string, now: number, sourceType: string): Promise<DeclarativeRow | undefined> {
    return this.driver.transaction(async (tx) => {
      const old = await tx.get<Row>('SELECT * FROM cloud_declarative_sources WHERE id = ?', [id]);
      if (!old) return undefined;
      const endpoint = JSON.stringify(declarativeEndpoint(toDeclarativeRow(old).manifest));
      await tx.run('UPDATE cloud_sources SET secret_endpoint = ? WHERE type = ? AND secret_endpoint IS NULL', [endpoint, sourceType]);
      const { changes } = await uniqueType(
        tx.run('UPDATE cloud_declarative_sources SET manifest = ?, connector_type = ?, version = version + 1, updated_at = ? WHERE id = ?', [
          JSON.stringify(manifest),
          type,
          now,
          id,
        ]),
      );
      const row = changes > 0 ? await tx.get<Row>('SELECT * FROM cloud_declarative_sources WHERE id = ?', [id]) : undefined;
      return row && toDeclarativeRow(row);
    });
  }

  /**
   * Deletes the definition and, as Airbyte does, the sources of its `sourceType` and the connections
   * using them, and its builder project's testing values, in one transaction, sources first; `bury`
   * runs in it too (their tombstones).
   */
  deleteWithSources(id: string, sourceType: string, bury: (tx: SqlDriver) => Promise<void>): Promise<void> {
    return this.driver.transaction(async (tx) => {
      await bury(tx);
      await tx.run('DELETE FROM cloud_connections WHERE source_id IN (SELECT id FROM cloud_sources WHERE type = ?)', [sourceType]);
      await tx.run('DELETE FROM cloud_sources WHERE type = ?', [sourceType]);
      await tx.run('DELETE FROM cloud_builder_testing_values WHERE definition_id = ?', [id]);
      await tx.run('DELETE FROM cloud_declarative_sources WHERE id = ?', [id]);
    });
  }
}

function uniqueType<T>(statement: Promise<T>): Promise<T> {
  return uniqueOr(statement, () => new DeclarativeTypeTakenError());
}

function toDeclarativeRow(row: Row): DeclarativeRow {
  return {
    ...row,
    manifest: JSON.parse(row.manifest) as Manifest,
    version: Number(row.version),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

import { dirname, resolve } from 'node:path';
import { ValidationError } from '../errors.ts';
import type { ContextStore, EntityState } from '../hosted/context-store/context-store.ts';
import { createContextStore } from '../hosted/context-store/create-context-store.ts';
import { runReplication, type ReplicationTarget } from '../hosted/replication/run-replication.ts';
import type { CompiledConnector } from '../plugins/compiled-connector.ts';
import { toValidationIssues } from '../schema/validation-issues.ts';

/**
 * An in-process instance's own context store: a SQLite file opened at first use (search or
 * replicate), with the tables and indexes the hosted server's has, so search answers the same.
 */
export function openLocalContextStore(connector: CompiledConnector, options: { path: string }) {
  const file = resolve(options.path);
  let opening: Promise<ContextStore> | undefined;
  const open = () => {
    opening ??= (async () => {
      const store = await createContextStore({ dataDir: dirname(file), file });
      for (const catalog of connector.searchCatalogs().values()) await store.prepare(catalog);
      return store;
    })();
    return opening;
  };
  return {
    open,
    async replicate(target: Omit<ReplicationTarget, 'config'>, config: Record<string, unknown> | undefined): Promise<Record<string, EntityState>> {
      const validate = connector.validateReplicationConfig;
      if (config !== undefined && validate && !validate(config)) throw new ValidationError(toValidationIssues(validate.errors ?? [], ['replication_config']));
      const store = await open();
      await runReplication({ ...target, config }, { store });
      return store.entityStates(target.connectorId);
    },
    async close() {
      if (opening) await (await opening).close();
      opening = undefined;
    },
  };
}

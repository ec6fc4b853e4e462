import type { ActionDefinition, ConnectorDefinition } from './types.ts';

/** Declares a connector. Identity at run time; it exists so authors get type checking and completion. */
export function defineConnector(definition: ConnectorDefinition): ConnectorDefinition {
  return definition;
}

/**
 * Declares one entity.action. `P` (the action's generated params type) types its hooks:
 * `defineAction<FilesListParams>({ ..., hooks: { prepareParams: (params) => ... } })`; it is
 * inferred from a hook whose params are annotated.
 */
export function defineAction<P extends object = object>(definition: ActionDefinition<P>): ActionDefinition<P> {
  return definition;
}

import type { ActionDefinition, ConnectorDefinition } from './types.ts';

/** Declares a connector. Identity at run time; it exists so authors get type checking and completion. */
export function defineConnector(definition: ConnectorDefinition): ConnectorDefinition {
  return definition;
}

/** Declares one entity.action. */
export function defineAction(definition: ActionDefinition): ActionDefinition {
  return definition;
}

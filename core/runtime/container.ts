import 'reflect-metadata';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import type { Ajv } from 'ajv';
import { createAjv } from '../schema/ajv.ts';
import type { CompiledConnector } from '../plugins/compiled-connector.ts';

/** Injection tokens of the runtime's container. */
export const TOKENS = {
  ajv: Symbol('Ajv'),
  connector: (type: string) => `connector:${type}`,
  connectorTypes: Symbol('ConnectorTypes'),
} as const;

/** A child container per runtime, so two runtimes in one process never share plugins. */
export function createRuntimeContainer(): DependencyContainer {
  const container = rootContainer.createChildContainer();
  container.register<Ajv>(TOKENS.ajv, { useValue: createAjv() });
  container.register<string[]>(TOKENS.connectorTypes, { useValue: [] });
  return container;
}

/**
 * Registers a loaded connector under its type id; a type can be registered once. An unlisted one
 * (a workspace's declarative source) is found by its type but left out of `connectorTypes`, so no
 * other tenant sees or offers it.
 */
export function registerConnector(container: DependencyContainer, connector: CompiledConnector, listed = true): void {
  const token = TOKENS.connector(connector.type);
  if (container.isRegistered(token)) throw new Error(`connector type "${connector.type}" is already registered`);
  container.register<CompiledConnector>(token, { useValue: connector });
  if (listed) container.resolve<string[]>(TOKENS.connectorTypes).push(connector.type);
}

export function findConnector(container: DependencyContainer, type: string): CompiledConnector | undefined {
  const token = TOKENS.connector(type);
  return container.isRegistered(token) ? container.resolve<CompiledConnector>(token) : undefined;
}

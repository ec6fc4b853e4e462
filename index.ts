/**
 * Plugboard's in-process API: core's runtime with the built-in connectors.
 *
 *   const runtime = await createRuntime();
 *   const chat = runtime.connector('chat', { credentials: { token } });
 *   const { result } = await chat.users.list({ limit: 10 });
 */
import { BUILTIN_CONNECTORS } from './connectors/builtin.ts';
import { createRuntimeWith, type PlugboardRuntime, type RuntimeOptions } from './core/index.ts';

export interface CreateRuntimeOptions extends RuntimeOptions {
  /** Load the built-in connectors (chat, file-storage). Default true. */
  builtins?: boolean;
  /** Further connector packages to load, by module specifier or path. */
  connectors?: string[];
}

export async function createRuntime(options: CreateRuntimeOptions = {}): Promise<PlugboardRuntime> {
  const { builtins, connectors, ...runtimeOptions } = options;
  return createRuntimeWith([...(builtins === false ? [] : BUILTIN_CONNECTORS), ...(connectors ?? [])], runtimeOptions);
}

export { BUILTIN_CONNECTORS } from './connectors/builtin.ts';
export * from './core/index.ts';

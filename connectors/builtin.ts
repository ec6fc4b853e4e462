/**
 * The connector packages Plugboard ships, kept beside them so core imports no connector: what
 * `createRuntime()` (index.ts at the root) and the hosted server load unless told otherwise.
 */
import type { ChatTypes } from './chat/types.generated.ts';
import type { FileStorageTypes } from './file-storage/types.generated.ts';

/** Module specifiers (file URLs) of the built-in connector packages, in load order. */
export const BUILTIN_CONNECTORS: readonly string[] = ['chat', 'file-storage'].map((type) => new URL(`./${type}/index.ts`, import.meta.url).href);

// The built-ins' generated type maps, so `runtime.connector('chat', ...)` is typed.
declare module '../core/runtime/known-connectors.ts' {
  interface KnownConnectors {
    chat: ChatTypes;
    'file-storage': FileStorageTypes;
  }
}

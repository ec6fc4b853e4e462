import type { ChatTypes } from '../connectors/chat/types.generated.ts';
import type { FileStorageTypes } from '../connectors/file-storage/types.generated.ts';

/** Connector packages `createRuntime()` loads unless told otherwise. */
export const BUILTIN_CONNECTORS = ['chat', 'file-storage'].map((type) => new URL(`../connectors/${type}/index.ts`, import.meta.url).href);

/**
 * Generated type maps of the built-in connectors, so `runtime.connector('chat', ...)` is typed.
 * Another package can add its own by declaration merging.
 */
export interface KnownConnectors {
  chat: ChatTypes;
  'file-storage': FileStorageTypes;
}

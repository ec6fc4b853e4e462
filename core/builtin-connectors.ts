import type { ChatTypes } from '../connectors/chat/types.generated.ts';

/** Connector packages `createRuntime()` loads unless told otherwise. */
export const BUILTIN_CONNECTORS = [new URL('../connectors/chat/index.ts', import.meta.url).href];

/**
 * Generated type maps of the built-in connectors, so `runtime.connector('chat', ...)` is typed.
 * Another package can add its own by declaration merging.
 */
export interface KnownConnectors {
  chat: ChatTypes;
}

/**
 * A stream's sync mode when none is chosen: deduplicated by key where the stream can be, as Airbyte's
 * default is for incremental streams, else its first. Imports nothing: the console shares it.
 */
export function defaultSyncMode<Mode extends string>(supported: readonly Mode[]): Mode | undefined {
  return supported.find((mode) => mode === 'incremental_deduped_history') ?? supported[0];
}

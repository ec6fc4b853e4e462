import type { SelectedStream } from '../sync/sync-target.ts';
import type { ConfigurationVault } from './configuration-vault.ts';
import type { ConnectionStream } from './connection-streams.ts';
import { type KeptMapperKeys, keptKeyAt, secretKeyOf, type StoredMapperKey } from './mapper-secrets.ts';

declare const keysSealed: unique symbol;

/** A stream as cloud_connections holds it: its AES keys sealed, so only MapperKeyVault.open gives a sync what it runs with. */
export type StoredStream = ConnectionStream & { readonly [keysSealed]: true };

/**
 * Encryption mappers' AES keys at rest: each sealed on its own with the data keys (as source and
 * destination configurations are), in the streams' JSON, and opened only for a sync.
 */
export class MapperKeyVault {
  constructor(private readonly vault: ConfigurationVault) {}

  /** The streams as stored: each key given sealed, a masked one the stored key (one a row held in clear sealed now). */
  seal(streams: readonly ConnectionStream[], kept: KeptMapperKeys): StoredStream[] {
    return streams.map((stream, i) =>
      withKeys(stream, (key, j) => {
        const stored = keptKeyAt(kept, i, j) ?? key;
        return typeof stored === 'string' ? this.vault.seal({ key: stored }) : stored;
      }),
    ) as StoredStream[];
  }

  /** The stored streams with the keys a row holds in clear sealed; undefined when it holds none (nothing to write). */
  sealLeftInClear(streams: readonly StoredStream[]): StoredStream[] | undefined {
    const inClear = streams.some((stream) => stream.mappers?.some((mapper) => typeof secretKeyOf(mapper) === 'string'));
    return inClear ? this.seal(streams, new Map()) : undefined;
  }

  /** The streams a sync runs with, each key opened (one a row holds in clear, written before keys were sealed, as it is). */
  open(streams: readonly StoredStream[]): SelectedStream[] {
    return streams.map((stream) => withKeys(stream, (key) => (typeof key === 'string' ? key : (this.vault.open(key).key as string))));
  }
}

/** The stream with each encryption mapper's key replaced (`j`: the mapper's place in the stream). */
function withKeys(stream: ConnectionStream, replace: (key: StoredMapperKey, j: number) => unknown): ConnectionStream {
  if (!stream.mappers?.some((mapper) => secretKeyOf(mapper) !== undefined)) return stream;
  const mappers = stream.mappers.map((mapper, j) => {
    const key = secretKeyOf(mapper) as StoredMapperKey | undefined;
    return key === undefined ? mapper : { ...mapper, mapperConfiguration: { ...mapper.mapperConfiguration, key: replace(key, j) } };
  });
  return { ...stream, mappers };
}

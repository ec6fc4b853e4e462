import { invalidField } from '../../errors.ts';
import type { EncryptedValue } from '../../stores/types.ts';
import type { SelectedStream } from '../sync/sync-target.ts';
import type { PublicStreamConfiguration, PublicStreamMapper } from '../types.generated.ts';
import type { Loc } from './actor-kind.ts';
import { SECRET_MASK } from './configuration-secrets.ts';

/** An AES key as a connection stores it: sealed (mapper-key-vault.ts), or in clear in rows written before keys were sealed. */
export type StoredMapperKey = EncryptedValue | string;

/** The stored keys a request sent back masked, by the place of their mapper (see keptKeyAt). */
export type KeptMapperKeys = ReadonlyMap<string, StoredMapperKey>;

/**
 * What stands for a kept key while the mappers are checked: any valid AES key does, since a key's
 * value changes nothing the checks look at; the stored key takes its place before the row is written.
 */
const KEPT_KEY_STAND_IN = '0'.repeat(64);

/** An AES encryption mapper's key (given, or stored: sealed or not): the one secret a mapper holds. */
export function secretKeyOf(mapper: Pick<PublicStreamMapper, 'type' | 'mapperConfiguration'>): unknown {
  return mapper.type === 'encryption' ? mapper.mapperConfiguration.key : undefined;
}

/** The place of a mapper in the streams given (and in selectStreams' answer, which keeps their order). */
export function keptKeyAt(kept: KeptMapperKeys, stream: number, mapper: number): StoredMapperKey | undefined {
  return kept.get(`${stream}/${mapper}`);
}

/** The mapper as answers give it: an AES key masked, as the official API masks secrets. */
export function maskedMapper(mapper: PublicStreamMapper): PublicStreamMapper {
  const key = secretKeyOf(mapper);
  if (key === undefined || key === '') return mapper;
  return { ...mapper, mapperConfiguration: { ...mapper.mapperConfiguration, key: SECRET_MASK } };
}

/**
 * The streams a client sent, each masked AES key standing for the one stored for the mapper of the
 * same id, so an answer read can be sent back: checked with a stand-in, the stored key (never opened
 * here) kept by the mapper's place. A masked key with no stored one is a 400.
 */
export function unmaskMapperKeys(
  given: readonly PublicStreamConfiguration[] | undefined,
  stored: readonly SelectedStream[],
  loc: Loc,
): { streams: PublicStreamConfiguration[] | undefined; kept: KeptMapperKeys } {
  const kept = new Map<string, StoredMapperKey>();
  const streams = given?.map((stream, i) => {
    if (!stream.mappers?.some((mapper) => secretKeyOf(mapper) === SECRET_MASK)) return stream;
    const mappers = stream.mappers.map((mapper, j) => {
      if (secretKeyOf(mapper) !== SECRET_MASK) return mapper;
      const same = stored.flatMap((candidate) => candidate.mappers ?? []).find((candidate) => candidate.id === mapper.id && candidate.type === 'encryption');
      const key = same && secretKeyOf(same);
      if (!isStoredKey(key)) {
        throw invalidField(
          [...loc, i, 'mappers', j, 'mapperConfiguration', 'key'],
          'the key is masked and no stored mapper of this id has one: send the key itself',
          'value_error.masked_key',
        );
      }
      kept.set(`${i}/${j}`, key);
      return { ...mapper, mapperConfiguration: { ...mapper.mapperConfiguration, key: KEPT_KEY_STAND_IN } };
    });
    return { ...stream, mappers };
  });
  return { streams, kept };
}

function isStoredKey(value: unknown): value is StoredMapperKey {
  if (typeof value === 'string') return value !== '';
  const sealed = value as Partial<EncryptedValue> | null;
  return typeof sealed === 'object' && sealed !== null && typeof sealed.key_id === 'string' && typeof sealed.ciphertext === 'string';
}

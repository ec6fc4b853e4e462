import { invalidField } from '../../errors.ts';
import type { SelectedStream } from '../sync/sync-target.ts';
import type { PublicStreamConfiguration, PublicStreamMapper } from '../types.generated.ts';
import type { Loc } from './actor-kind.ts';
import { SECRET_MASK } from './configuration-secrets.ts';

/** An AES encryption mapper's key: the one secret a mapper holds. */
function secretKeyOf(mapper: PublicStreamMapper): unknown {
  return mapper.type === 'encryption' ? mapper.mapperConfiguration.key : undefined;
}

/** The mapper as answers give it: an AES key masked, as the official API masks secrets. */
export function maskedMapper(mapper: PublicStreamMapper): PublicStreamMapper {
  const key = secretKeyOf(mapper);
  if (typeof key !== 'string' || key === '') return mapper;
  return { ...mapper, mapperConfiguration: { ...mapper.mapperConfiguration, key: SECRET_MASK } };
}

/**
 * The streams a client sent, each masked AES key replaced by the one stored for the mapper of the
 * same id, so an answer read can be sent back; a masked key with no stored one is a 400.
 */
export function unmaskMapperKeys(
  given: readonly PublicStreamConfiguration[] | undefined,
  stored: readonly SelectedStream[],
  loc: Loc,
): PublicStreamConfiguration[] | undefined {
  return given?.map((stream, i) => {
    if (!stream.mappers?.some((mapper) => secretKeyOf(mapper) === SECRET_MASK)) return stream;
    const mappers = stream.mappers.map((mapper, j) => {
      if (secretKeyOf(mapper) !== SECRET_MASK) return mapper;
      const kept = stored.flatMap((candidate) => candidate.mappers ?? []).find((candidate) => candidate.id === mapper.id && candidate.type === 'encryption');
      const key = kept?.mapperConfiguration.key;
      if (typeof key !== 'string') {
        throw invalidField(
          [...loc, i, 'mappers', j, 'mapperConfiguration', 'key'],
          'the key is masked and no stored mapper of this id has one: send the key itself',
          'value_error.masked_key',
        );
      }
      return { ...mapper, mapperConfiguration: { ...mapper.mapperConfiguration, key } };
    });
    return { ...stream, mappers };
  });
}

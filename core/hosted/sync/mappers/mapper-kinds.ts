import { ValidationError } from '../../../errors.ts';
import { createAjv } from '../../../schema/ajv.ts';
import { toValidationIssues } from '../../../schema/validation-issues.ts';
import { compileTyped, type TypedSchema } from '../../typed-schema.ts';
import { type PublicStreamMapper, SERVER_SCHEMAS } from '../../types.generated.ts';
import { encryption } from './encryption.ts';
import { fieldFiltering } from './field-filtering.ts';
import { fieldRenaming } from './field-renaming.ts';
import { hashing } from './hashing.ts';
import type { Loc, MappedFields } from './mapped-fields.ts';
import type { MapperKind, RecordStep } from './record-step.ts';
import { rowFiltering } from './row-filtering.ts';

/** A mapper type's planning from a configuration not checked yet. */
type Planner = (configuration: unknown, fields: MappedFields, loc: Loc) => RecordStep;

const ajv = createAjv();

/** The type's configuration held to its schema (schemas/server/mapper-<type>.json) first: each problem a 400 at its place. */
function planner<Config>(schema: TypedSchema<Config>, kind: MapperKind<Config>): Planner {
  const validate = compileTyped(ajv, schema);
  return (configuration, fields, loc) => {
    if (!validate(configuration)) throw new ValidationError(toValidationIssues(validate.errors ?? [], loc));
    return kind.plan(configuration, fields, loc);
  };
}

const PLANNERS: Record<PublicStreamMapper['type'], Planner> = {
  hashing: planner(SERVER_SCHEMAS['mapper-hashing.json'], hashing),
  'field-renaming': planner(SERVER_SCHEMAS['mapper-field-renaming.json'], fieldRenaming),
  'field-filtering': planner(SERVER_SCHEMAS['mapper-field-filtering.json'], fieldFiltering),
  'row-filtering': planner(SERVER_SCHEMAS['mapper-row-filtering.json'], rowFiltering),
  encryption: planner(SERVER_SCHEMAS['mapper-encryption.json'], encryption),
};

/** One mapper's step, checked against its type's schema, then against the fields the mappers before it left. */
export function planMapper(mapper: PublicStreamMapper, fields: MappedFields, loc: Loc): RecordStep {
  return PLANNERS[mapper.type](mapper.mapperConfiguration, fields, [...loc, 'mapperConfiguration']);
}

import type { Ajv } from 'ajv';
import type { JsonSchema } from '../../sdk/index.ts';
import { isObject } from '../json-values.ts';

/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);
/** Keywords whose value is a schema, or a list of schemas. */
const SCHEMA_VALUES = new Set([
  'items',
  'additionalItems',
  'prefixItems',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'allOf',
  'anyOf',
  'oneOf',
]);

/**
 * An Airbyte schema as Plugboard's strict ajv compiles it: Airbyte's annotations (`airbyte_secret`,
 * `airbyte_type`, `order`...) and formats ajv does not know (`int32`) are dropped, so a record or
 * configuration schema from a manifest validates what it says and names no keyword it cannot check.
 * `$schema` goes too: manifests name drafts by URLs ajv does not resolve.
 */
export function portableSchema(schema: unknown, ajv: Ajv): JsonSchema {
  return (isObject(schema) ? portable(schema, ajv, 0) : {}) as JsonSchema;
}

function portable(schema: Record<string, unknown>, ajv: Ajv, depth: number): Record<string, unknown> {
  if (depth > 64) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // `id` is draft-04's `$id`, which ajv refuses; the others are annotations ajv does not know.
    if (key === '$schema' || key === 'id' || !ajv.getKeyword(key)) continue;
    if (key === 'format' && (typeof value !== 'string' || !(value in ajv.formats))) continue;
    if (key === 'type' && !validType(value)) continue;
    if (key === 'required') {
      if (Array.isArray(value)) out.required = [...new Set(value.filter((name) => typeof name === 'string'))];
    } else if (SCHEMA_MAPS.has(key)) {
      // A property given as text or null is no schema: left out rather than refusing the whole stream.
      if (isObject(value))
        out[key] = Object.fromEntries(Object.entries(value).flatMap(([name, child]) => (isSchema(child) ? [[name, portableChild(child, ajv, depth)]] : [])));
    } else if (SCHEMA_VALUES.has(key)) {
      if (Array.isArray(value)) out[key] = value.filter(isSchema).map((child) => portableChild(child, ajv, depth));
      else if (isSchema(value)) out[key] = portableChild(value, ajv, depth);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function isSchema(value: unknown): value is Record<string, unknown> | boolean {
  return isObject(value) || typeof value === 'boolean';
}

function portableChild(child: Record<string, unknown> | boolean, ajv: Ajv, depth: number): Record<string, unknown> | boolean {
  return typeof child === 'boolean' ? child : portable(child, ajv, depth + 1);
}

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

function validType(value: unknown): boolean {
  const types = Array.isArray(value) ? value : [value];
  return types.length > 0 && types.every((type) => typeof type === 'string' && JSON_TYPES.has(type)) && new Set(types).size === types.length;
}

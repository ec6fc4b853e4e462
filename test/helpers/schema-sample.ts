import type { SeededRandom } from '../../testing/seeded-random.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, unknown>;

/** Values known to be valid for a property of this name (ids and secrets the fixture made), used instead of guessing from its schema. */
export type Dictionary = Readonly<Record<string, readonly Json[]>>;

/**
 * A value meant to satisfy `schema`, so that a request built on it gets past validation and one
 * mutation of it reaches the code behind. Required properties always, optional ones at random.
 * Patterns are not inverted: an optional property with one is left out unless the dictionary has it.
 */
export function sampleSchema(schema: Schema, random: SeededRandom, dictionary: Dictionary, name?: string): Json {
  const known = name === undefined ? undefined : dictionary[name];
  if (known) return random.pick(known);
  if ('const' in schema) return schema.const as Json;
  if (Array.isArray(schema.enum)) return random.pick(schema.enum as Json[]);
  if (schema.default !== undefined && random.chance(0.5)) return schema.default as Json;
  const branches = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (branches) {
    const { oneOf: _oneOf, anyOf: _anyOf, ...rest } = schema;
    return sampleSchema({ ...rest, ...random.pick(branches) }, random, dictionary, name);
  }
  const type = Array.isArray(schema.type) ? random.pick(schema.type as string[]) : schema.type;
  switch (type) {
    case 'object':
      return sampleObject(schema, random, dictionary);
    case 'array': {
      const items = (schema.items ?? {}) as Schema;
      const count = Math.max(Number(schema.minItems ?? 0), random.int(0, 2));
      return Array.from({ length: Math.min(count, Number(schema.maxItems ?? count)) }, () => sampleSchema(items, random, dictionary));
    }
    case 'integer':
    case 'number': {
      const min = Number(schema.minimum ?? 1);
      return random.int(min, Math.max(min, Math.min(Number(schema.maximum ?? 100), min + 100)));
    }
    case 'boolean':
      return random.chance(0.5);
    case 'null':
      return null;
    case 'string':
      return sampleString(schema);
    default:
      return {};
  }
}

function sampleObject(schema: Schema, random: SeededRandom, dictionary: Dictionary): Json {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const out: Record<string, Json> = {};
  for (const [key, child] of Object.entries(properties)) {
    const guessable = child.pattern === undefined || dictionary[key] !== undefined;
    if (!required.has(key) && (!guessable || random.chance(0.5))) continue;
    out[key] = sampleSchema(child, random, dictionary, key);
  }
  return out;
}

function sampleString(schema: Schema): string {
  if (schema.format === 'date-time') return '2030-01-01T00:00:00.000Z';
  if (schema.format === 'uri' || schema.format === 'url') return 'https://app.example';
  const length = Math.min(Math.max(Number(schema.minLength ?? 0), 6), Number(schema.maxLength ?? 6));
  return 'fuzzed'.padEnd(length, 'x').slice(0, length);
}

import type { JsonSchema } from '../../sdk/index.ts';
import type { ColumnSpec, ColumnType } from './destinations/destination.ts';

/** A column per property of the record schema: scalars typed, everything else (objects, arrays, several types) JSON. */
export function columnsOf(record: JsonSchema): ColumnSpec[] {
  const properties = (record.properties as Record<string, JsonSchema> | undefined) ?? {};
  return Object.entries(properties).map(([name, schema]) => ({ name, type: columnType(schema) }));
}

const SCALARS: ReadonlySet<string> = new Set(['string', 'integer', 'number', 'boolean']);

function columnType(schema: JsonSchema | null): ColumnType {
  // A property that is not a schema object (null, true) holds anything: JSON.
  const given = schema && typeof schema === 'object' ? schema.type : undefined;
  const types = (Array.isArray(given) ? given : given === undefined ? [] : [given]).filter((type) => type !== 'null') as string[];
  return types.length === 1 && SCALARS.has(types[0]!) ? (types[0] as ColumnType) : 'json';
}

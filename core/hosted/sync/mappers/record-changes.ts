import { META_COLUMN } from '../destinations/table-columns.ts';

/** A value a mapper could not map and left NULL, as Airbyte's mappers note it in the row's `_airbyte_meta.changes`. */
export interface MapperChange {
  field: string;
  change: 'NULLED';
  reason: 'PLATFORM_SERIALIZATION_ERROR';
}

/**
 * Puts the record's changes under `_airbyte_meta`, a name no column may take: they reach the
 * destination with the record, through the JSON its writer threads read too (a side table would not).
 */
export function carryChanges(record: Record<string, unknown>, nulledFields: readonly string[]): void {
  const changes: MapperChange[] = nulledFields.map((field) => ({ field, change: 'NULLED', reason: 'PLATFORM_SERIALIZATION_ERROR' }));
  record[META_COLUMN] = { changes };
}

/** The changes a record carries (a copy, only well-formed ones: a source's record may hold anything under that name). */
export function carriedChanges(record: Record<string, unknown>): MapperChange[] | undefined {
  const meta = record[META_COLUMN];
  if (meta === undefined) return undefined;
  const changes = (meta as { changes?: unknown } | null)?.changes;
  if (!Array.isArray(changes)) return undefined;
  const kept = changes.filter(isMapperChange).map(({ field, change, reason }) => ({ field, change, reason }));
  return kept.length > 0 ? kept : undefined;
}

function isMapperChange(value: unknown): value is MapperChange {
  const change = value as Partial<MapperChange> | null;
  return typeof change?.field === 'string' && change.change === 'NULLED' && change.reason === 'PLATFORM_SERIALIZATION_ERROR';
}

import type { MappedFields } from './mapped-fields.ts';
import type { Loc } from './mapped-fields.ts';

/** Notes a value a mapper could not map and left out (written as NULL), by its output field. */
export type NoteNulled = (field: string) => void;

/** One mapper's work on a record the sync owns (a copy): changes it in place; false drops the row. */
export type RecordStep = (record: Record<string, unknown>, nulled: NoteNulled) => boolean;

/** A mapper type: checks a configuration (its schema already held) against the fields so far, updates them, and answers its step. */
export interface MapperKind<Config> {
  plan(config: Config, fields: MappedFields, loc: Loc): RecordStep;
}

import { invalidField } from '../../../errors.ts';
import type { ColumnSpec, ColumnType } from '../destinations/destination.ts';
import { EXTRACTED_AT_COLUMN, META_COLUMN, RAW_ID_COLUMN } from '../destinations/table-columns.ts';

export type Loc = Array<string | number>;

/** Names a mapper may not give a field: the columns every table gets besides the record's. */
const RESERVED = new Set([RAW_ID_COLUMN, EXTRACTED_AT_COLUMN, META_COLUMN]);

/**
 * A stream's top-level fields as the mappers so far leave them, which the next mapper is checked
 * against (Airbyte's SlimStream): their columns, and the primary key, which follows a field renamed
 * or hashed (a digest still tells rows apart) and loses one filtered or encrypted (a random IV makes
 * every write of a row a new value). Where rows are upserted by the key (`keyed`), losing a key field
 * is refused; elsewhere the table then has no primary key.
 */
export class MappedFields {
  readonly columns: ColumnSpec[];
  readonly primaryKey: string[];
  /** A key field a mapper took away, when one did. */
  keyLost: string | undefined;

  constructor(
    columns: readonly ColumnSpec[],
    primaryKey: readonly string[],
    private readonly keyed: boolean,
  ) {
    this.columns = columns.map((column) => ({ ...column }));
    this.primaryKey = [...primaryKey];
  }

  /** Refuses a field that is not (or no longer, after an earlier mapper) one of the stream's. */
  require(name: string, loc: Loc): void {
    if (this.columns.some((column) => column.name === name)) return;
    throw invalidField(
      loc,
      `no field "${name}" here: the fields after the selection and the mappers before this one are ${this.columns.map((column) => column.name).join(', ')}`,
      'value_error.mapper_field_not_found',
    );
  }

  /** The field under a new name (and type), the key following it; the name must be no other field's. */
  redefine(name: string, next: string, type: ColumnType | undefined, loc: Loc): void {
    if (RESERVED.has(next.toLowerCase())) {
      throw invalidField(loc, `"${next}" is one of the columns every table gets (${[...RESERVED].join(', ')})`, 'value_error.mapper_reserved_field');
    }
    if (next !== name && this.columns.some((column) => column.name === next)) {
      throw invalidField(loc, `a field "${next}" already exists`, 'value_error.mapper_field_exists');
    }
    const column = this.columns.find((candidate) => candidate.name === name)!;
    column.name = next;
    if (type) column.type = type;
    const key = this.primaryKey.indexOf(name);
    if (key >= 0) this.primaryKey[key] = next;
  }

  /** The field gone from the table (`remove`) or made unfit to key rows (`unkey`). */
  remove(name: string, loc: Loc): void {
    this.unkey(name, 'filter out', loc);
    this.columns.splice(
      this.columns.findIndex((column) => column.name === name),
      1,
    );
  }

  unkey(name: string, verb: string, loc: Loc): void {
    const key = this.primaryKey.indexOf(name);
    if (key < 0) return;
    if (this.keyed) {
      throw invalidField(
        loc,
        `cannot ${verb} "${name}": it is a primary key field, by which the incremental modes upsert rows (rename or hash it instead)`,
        'value_error.mapper_primary_key',
      );
    }
    this.primaryKey.splice(key, 1);
    this.keyLost ??= name;
  }
}

import type { QueryRunner } from './runner-session.ts';
import { quoteIdentifier, truncateUtf8 } from './table-columns.ts';

/** PostgreSQL's NAMEDATALEN less its terminator: the bytes of a name. */
const MAX_NAME_BYTES = 63;

/** The constraints whose names PostgreSQL derives from the table's: its primary key (and, from PostgreSQL 18, each NOT NULL). */
const DERIVED_CONSTRAINTS = `
  SELECT c.conname, c.contype, c.connamespace::text AS namespace, a.attname
  FROM pg_catalog.pg_constraint c
  LEFT JOIN pg_catalog.pg_attribute a ON c.contype = 'n' AND a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
  WHERE c.conrelid = $1::regclass AND c.contype IN ('p', 'n')`;

/** Whether a name is already a relation's (an index's, a table's) or a constraint's in the schema. */
const NAME_TAKEN = `
  SELECT 1 FROM pg_catalog.pg_class WHERE relnamespace = $1::oid AND relname = $2
  UNION ALL SELECT 1 FROM pg_catalog.pg_constraint WHERE connamespace = $1::oid AND conname = $2`;

/**
 * After a staging table is renamed to `table`: its constraints (and the primary key's index, which
 * a constraint's rename renames too) still carry the staging table's name (`users_airbyte_tmp_pkey`),
 * and the next staging table would get `..._pkey1`. Renames each to the name CREATE TABLE `table`
 * would have chosen (`users_pkey`), as PostgreSQL chooses it: the first name free in the schema.
 */
export async function renameDerivedConstraints(runner: QueryRunner, qualified: string, table: string): Promise<void> {
  for (const constraint of await runner.query(DERIVED_CONSTRAINTS, [qualified])) {
    const current = String(constraint.conname);
    const column = constraint.contype === 'n' ? String(constraint.attname) : undefined;
    const label = column === undefined ? 'pkey' : 'not_null';
    for (let pass = 0; ; pass++) {
      const wanted = objectName(table, column, pass === 0 ? label : `${label}${pass}`);
      if (wanted === current) break;
      if ((await runner.query(NAME_TAKEN, [String(constraint.namespace), wanted])).length > 0) continue;
      await runner.query(`ALTER TABLE ${qualified} RENAME CONSTRAINT ${quoteIdentifier(current)} TO ${quoteIdentifier(wanted)}`);
      break;
    }
  }
}

/**
 * PostgreSQL's makeObjectName: `name1[_name2]_label` within 63 bytes, bytes taken off the longer of
 * the two names first, each cut on a character boundary.
 */
export function objectName(name1: string, name2: string | undefined, label: string): string {
  let bytes1 = Buffer.byteLength(name1);
  let bytes2 = name2 === undefined ? 0 : Buffer.byteLength(name2);
  const available = MAX_NAME_BYTES - (label.length + 1) - (name2 === undefined ? 0 : 1);
  while (bytes1 + bytes2 > available) {
    if (bytes1 > bytes2) bytes1--;
    else bytes2--;
  }
  const parts = [truncateUtf8(name1, bytes1), ...(name2 === undefined ? [] : [truncateUtf8(name2, bytes2)]), label];
  return parts.join('_');
}

import { isUniqueViolation, type SqlDriver, type SqlValue } from '../../stores/sql-driver.ts';

/** `?, ?, ?` for a list of values in an `IN (...)`. */
export function placeholders(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}

/** Sets the columns given a value (undefined: left as they are) of one row; false when the row is gone. */
export async function updateColumns(driver: SqlDriver, table: string, id: string, values: Record<string, SqlValue | undefined>): Promise<boolean> {
  const columns = Object.entries(values).filter((entry): entry is [string, SqlValue] => entry[1] !== undefined);
  if (columns.length === 0) return (await driver.get(`SELECT 1 FROM ${table} WHERE id = ?`, [id])) !== undefined;
  const sets = columns.map(([name]) => `${name} = ?`).join(', ');
  return (await driver.run(`UPDATE ${table} SET ${sets} WHERE id = ?`, [...columns.map(([, value]) => value), id])).changes > 0;
}

/** The statement's result; a unique key it repeats is `taken()` instead (a name or type taken, as the caller says). */
export async function uniqueOr<T>(statement: Promise<T>, taken: () => Error): Promise<T> {
  try {
    return await statement;
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

import { migrate } from '../../stores/migrate.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';

/** The users and permissions tables, in the cloud API's database. */
export async function migratePermissions(driver: SqlDriver): Promise<void> {
  await migrate(driver, { dir: new URL('./migrations/', import.meta.url), table: 'permission_migrations', lock: 7_263_110 });
}

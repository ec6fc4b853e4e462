import { migrate } from '../../stores/migrate.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';

/** The OAuth subsystem's tables (live tokens, registered apps, flows in progress), in the cloud API's database. */
export async function migrateOAuth(driver: SqlDriver): Promise<void> {
  await migrate(driver, { dir: new URL('./migrations/', import.meta.url), table: 'oauth_migrations', lock: 7_263_108 });
}

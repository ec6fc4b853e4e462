import { migrate } from '../../stores/migrate.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';

const LOCK = 7_263_107;

/** The sync engine's tables (jobs, attempts, stream state), beside the cloud API's in its database. */
export async function migrateSync(driver: SqlDriver): Promise<void> {
  await migrate(driver, { dir: new URL(`./migrations/${driver.dialect}/`, import.meta.url), table: 'sync_migrations', lock: LOCK });
  await migrate(driver, { dir: new URL('./migrations/common/', import.meta.url), table: 'sync_common_migrations', lock: LOCK });
}

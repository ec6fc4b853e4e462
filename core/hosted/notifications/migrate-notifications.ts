import { migrate } from '../../stores/migrate.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';

/** The notification tables (events, deliveries, secrets, organization webhooks), in the cloud API's database. */
export async function migrateNotifications(driver: SqlDriver): Promise<void> {
  await migrate(driver, { dir: new URL('./migrations/', import.meta.url), table: 'notification_migrations', lock: 7_263_109 });
}

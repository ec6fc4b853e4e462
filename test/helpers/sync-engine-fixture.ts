import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SlackSandbox } from '../../connectors/chat/sandbox/index.ts';
import { migrateSync } from '../../core/hosted/sync/migrate-sync.ts';
import { SyncJobs } from '../../core/hosted/sync/sync-jobs.ts';
import { SyncStates } from '../../core/hosted/sync/sync-states.ts';
import { SqliteDriver } from '../../core/stores/sqlite-driver.ts';
import { createRuntime, type PlugboardRuntime } from '../../index.ts';
import { CHAT_TOKEN } from './chat-fixture.ts';

/** What a sync engine test runs against: a Slack sandbox of those sizes, a runtime, and the jobs' own SQLite database in a scratch folder. */
export interface SyncEngineFixture {
  sandbox: SlackSandbox;
  runtime: PlugboardRuntime;
  dataDir: string;
  driver: SqliteDriver;
  jobs: SyncJobs;
  states: SyncStates;
  close(): Promise<void>;
}

export async function startSyncEngine(sizes: { users: number; channels: number; messagesPerChannel: number }, label: string): Promise<SyncEngineFixture> {
  const sandbox = await SlackSandbox.start({ token: CHAT_TOKEN, ...sizes });
  const runtime = await createRuntime();
  const dataDir = mkdtempSync(join(tmpdir(), `plugboard-${label}-`));
  const driver = new SqliteDriver(dataDir, join(dataDir, 'cloud-api.db'));
  await migrateSync(driver);
  return {
    sandbox,
    runtime,
    dataDir,
    driver,
    jobs: new SyncJobs(driver),
    states: new SyncStates(driver),
    close: async () => {
      await driver.close();
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

import pg from 'pg';
import PgBoss from 'pg-boss';
import { ConfigurationError } from '../../configuration-error.ts';
import type { JobQueueFactory } from './job-queue.ts';
import { PgBossJobQueue } from './pg-boss-job-queue.ts';
import { PollingJobQueue } from './polling-job-queue.ts';

export interface JobQueues {
  readonly backend: 'polling' | 'pg-boss';
  queue: JobQueueFactory;
  close(): Promise<void>;
}

/** Polling in process: the backend of SQLite deployments, and of tests that run one worker alone. */
export const pollingJobQueues: JobQueues = {
  backend: 'polling',
  queue: (kind, options) => new PollingJobQueue(kind, options),
  close: async () => {},
};

/**
 * pg-boss's tables beside the server's: their own schema, named after the server's (given, or set
 * by the URL's `options=-c search_path=...`), so deployments sharing a database never share queues.
 */
export function jobSchemaOf(databaseUrl: string, schema: string | undefined): string {
  const fromUrl = /search_path=([A-Za-z_][A-Za-z0-9_]*)/.exec(new URL(databaseUrl).searchParams.get('options') ?? '')?.[1];
  const own = schema ?? fromUrl;
  return own ? `${own}_jobs` : 'pgboss';
}

/**
 * The job queues of a deployment: pg-boss on PostgreSQL (started here, its tables migrated under an
 * advisory lock, so instances starting together agree), polling on SQLite.
 */
export async function openJobQueues(options: { databaseUrl?: string; schema?: string; onError?: (error: Error) => void }): Promise<JobQueues> {
  if (!options.databaseUrl) return pollingJobQueues;
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    schema: jobSchemaOf(options.databaseUrl, options.schema),
    application_name: 'plugboard-jobs',
    max: 4,
    // Cron lives in the rows (a connection's schedule); pg-boss's own would be a second clock.
    schedule: false,
  });
  // An EventEmitter's unheard 'error' would end the process: a lost connection is logged, and pg-boss reconnects.
  boss.on('error', (error) => options.onError?.(error));
  await boss.start().catch((error: unknown) => {
    throw jobSchemaProblem(error, boss) ?? error;
  });
  return {
    backend: 'pg-boss',
    queue: (kind, queueOptions) => new PgBossJobQueue(boss, kind, queueOptions),
    close: () => boss.stop({ graceful: true, wait: true, timeout: 5_000 }),
  };
}

/** A role that may not create pg-boss's schema refuses the start in words, as a refused migration does. */
function jobSchemaProblem(error: unknown, boss: PgBoss): ConfigurationError | null {
  if (!(error instanceof pg.DatabaseError) || error.code !== '42501') return null;
  void boss.stop({ graceful: false }).catch(() => undefined);
  return new ConfigurationError(
    `PostgreSQL refused the job queues' schema: ${error.message}; the role in DATABASE_URL must be allowed to create it (CREATE on the database), or it must exist`,
  );
}

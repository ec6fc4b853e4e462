import pg from 'pg';
import PgBoss from 'pg-boss';
import { parse as parseConnectionString } from 'pg-connection-string';
import { ConfigurationError } from '../../configuration-error.ts';
import type { JobQueueFactory } from './job-queue.ts';
import { PgBossJobQueue } from './pg-boss-job-queue.ts';
import { PollingJobQueue } from './polling-job-queue.ts';

export interface JobQueues {
  queue: JobQueueFactory;
  close(): Promise<void>;
}

/** Polling in process: the backend of SQLite deployments, and of tests that run one worker alone. */
export const pollingJobQueues: JobQueues = {
  queue: (kind, options) => new PollingJobQueue(kind, options),
  close: async () => {},
};

/**
 * pg-boss's tables beside the server's: their own schema, named after the server's (given, or set
 * by the URL's `options=-c search_path=...`), so deployments sharing a database never share queues.
 */
export function jobSchemaOf(databaseUrl: string, schema: string | undefined): string {
  const own = schema ?? searchPathOf(databaseUrl);
  return own ? `${own}_jobs` : 'pgboss';
}

/** The first schema of the URL's `options=-c search_path=...`, when it is a plain name (socket URLs included). */
function searchPathOf(databaseUrl: string): string | undefined {
  const options = parseConnectionString(databaseUrl).options ?? '';
  return /search_path=([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_$-])/.exec(options)?.[1];
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
  boss.on('error', (error: unknown) => options.onError?.(error instanceof Error ? error : new Error(describe(error))));
  await boss.start().catch(async (error: unknown) => {
    // A failed start leaves pg-boss's pool open, and its stop() does nothing then.
    await (boss.getDb() as { close?: () => Promise<void> }).close?.().catch(() => undefined);
    throw jobSchemaProblem(error) ?? error;
  });
  return {
    queue: (kind, queueOptions) => new PgBossJobQueue(boss, kind, queueOptions),
    close: () => boss.stop({ graceful: true, wait: true, timeout: 5_000 }),
  };
}

/** A role that may not create pg-boss's schema refuses the start in words, as a refused migration does. */
function jobSchemaProblem(error: unknown): ConfigurationError | null {
  if (!(error instanceof pg.DatabaseError) || error.code !== '42501') return null;
  return new ConfigurationError(
    `PostgreSQL refused the job queues' schema: ${error.message}; the role in DATABASE_URL must be allowed to create it (CREATE on the database), or it must exist`,
  );
}

/** pg-boss emits some errors as plain objects ({message, queue, ...}). */
function describe(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
}

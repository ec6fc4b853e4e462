import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import type { NewApplicationCredentials } from '../core/hosted/applications.ts';
import { BUILTIN_CONNECTORS } from '../connectors/builtin.ts';
import { createHostedRuntime, type HostedRuntime } from '../core/hosted/hosted-runtime.ts';
import { createApp } from './app.ts';
import { urlHost, type ServerConfig } from './config.ts';
import { createHttpServer, listen } from './http-server.ts';

export interface RunningServer {
  url: string;
  hosted: HostedRuntime;
  /** Set when this start found no application and made one for local use. */
  firstApplication: NewApplicationCredentials | null;
  close(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  databaseSchema?: string;
  env?: NodeJS.ProcessEnv;
  /** The runtime's clock (milliseconds since the epoch); tests move it past token and widget-origin expiries. */
  clock?: () => number;
  /** How often due replication jobs are looked for (default 5 s). */
  replicationPollMs?: number;
  /** How often sync jobs and schedules are looked for (default 2 s), and the first retry's delay (default 10 s). */
  syncPollMs?: number;
  syncRetryDelayMs?: number;
}

/**
 * Opens the store (migrating it), checks the keys, listens, bounded against slow clients, then makes
 * the first application of an empty install (exactly one, when several instances start together).
 * A ConfigurationError (settings, database, data directory, keys, address) refuses the start.
 */
export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const hosted = await createHostedRuntime({
    databaseUrl: config.databaseUrl,
    databaseSchema: options.databaseSchema,
    dataDir: config.dataDir,
    issuer: config.publicUrl,
    builtins: BUILTIN_CONNECTORS,
    connectors: config.connectors,
    baseUrls: config.baseUrls,
    oauthUrls: config.oauthUrls,
    egress: config.egress,
    env: options.env,
    onKeyProblem: (message) => logger.error(message),
    onStoreWarning: (message) => logger.warn(message),
    clock: options.clock,
    credentialAttemptLimits: config.credentialAttemptLimits,
    searchBudgetMs: config.searchBudgetMs,
    replication: {
      intervalMs: config.replicationIntervalSeconds * 1000,
      pollMs: options.replicationPollMs,
      log: (event) => (event.event.endsWith('_failed') ? logger.warn(event) : logger.info(event)),
    },
    notifications: {
      settings: config.notifications,
      log: (event) => (event.event === 'notification_delivered' ? logger.info(event) : logger.warn(event)),
    },
    sync: {
      pollMs: options.syncPollMs,
      retryDelayMs: options.syncRetryDelayMs,
      log: (event) => (event.event === 'sync_poll_failed' || 'error' in event ? logger.warn(event) : logger.info(event)),
    },
  });
  const app = createApp(hosted, config, logger);
  const server = createHttpServer(app.callback(), config);
  await listen(server, config.port, config.host).catch(async (error: unknown) => {
    await hosted.close();
    throw error;
  });
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await hosted.close();
  };
  // Only once listening: an application made by a start that then failed would never have its secret shown.
  const firstApplication = await hosted.applications.createFirst().catch(async (error: unknown) => {
    await close();
    throw error;
  });
  await Promise.all([hosted.replicationScheduler.start(), hosted.syncWorker.start(), hosted.notifications.worker.start()]).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${urlHost(config.host)}:${port}`,
    hosted,
    firstApplication,
    close,
  };
}

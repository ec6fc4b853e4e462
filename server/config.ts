import { resolve } from 'node:path';

export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Public address of the service: token issuer and the base of URLs it builds (widgetUrl). */
  publicUrl: string;
  /** Upstream API root per connector type, a deployment setting: never taken from callers. */
  baseUrls: Record<string, string | undefined>;
  /** Largest JSON body accepted, in bytes. */
  bodyLimitBytes: number;
}

/** Reads the deployment's settings from the environment (README "Hosted server" lists them). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const host = env.HOST ?? '127.0.0.1';
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return {
    host,
    port,
    dataDir: resolve(env.PLUGBOARD_DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl: (env.PLUGBOARD_PUBLIC_URL ?? `http://${host}:${port}`).replace(/\/+$/, ''),
    baseUrls: {
      chat: env.PLUGBOARD_CHAT_BASE_URL || undefined,
      'file-storage': env.PLUGBOARD_FILE_STORAGE_BASE_URL || undefined,
    },
    bodyLimitBytes: Number(env.PLUGBOARD_BODY_LIMIT_BYTES ?? 1024 * 1024),
  };
}

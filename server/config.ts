import { resolve } from 'node:path';
import { ConfigurationError } from '../core/configuration-error.ts';
import { DEFAULT_CREDENTIAL_ATTEMPT_LIMITS, type CredentialAttemptLimitOptions } from '../core/hosted/credential-attempts.ts';
import { DEFAULT_SEARCH_BUDGET_MS } from '../core/hosted/context-store/search-budget.ts';
import type { BaseUrlsForTypes, OAuthUrlsForTypes } from '../core/hosted/load-hosted-connectors.ts';
import { baseUrlSettings, oauthUrlSettings } from './base-url-settings.ts';
import { databaseUrlSetting, httpUrlSetting, integerSetting, listSetting } from './env-settings.ts';
import { organizationEmailSetting } from './organization-email.ts';
import { EgressPolicy } from '../core/security/egress/egress-policy.ts';
import { notificationSettingsFromEnv, type NotificationSettings } from '../core/hosted/notifications/notification-settings.ts';

export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Public address of the service: token issuer and the base of URLs it builds (widgetUrl). */
  publicUrl: string;
  /** Connector packages loaded beside the built-ins: module specifiers or paths, relative ones from the working directory. */
  connectors?: string[];
  /**
   * Upstream API root per connector type, a deployment setting: never taken from callers. A function
   * of the types, which are known only once the connectors are loaded.
   */
  baseUrls: BaseUrlsForTypes;
  /** Per connector type, the operator's OAuth endpoints in place of the declared ones (PLUGBOARD_<TYPE>_AUTHORIZE_URL, _TOKEN_URL). */
  oauthUrls?: OAuthUrlsForTypes;
  /** What connections made on a tenant's behalf may reach (PLUGBOARD_EGRESS_ALLOW opens addresses the default refuses). */
  egress: EgressPolicy;
  /** Largest JSON body accepted, in bytes. */
  bodyLimitBytes: number;
  /** A client must send its request's headers within this time, or its connection is closed (408). */
  headersTimeoutSeconds: number;
  /** ...and the whole request, body included, within this one; the response may take as long as it needs. */
  requestTimeoutSeconds: number;
  /** Connections beyond this many are closed as they arrive. */
  maxConnections: number;
  /** Failed application-credential attempts allowed per minute, per address and per client id. */
  credentialAttemptLimits: CredentialAttemptLimitOptions;
  /**
   * Reverse proxies in front of the server that append the caller's address to X-Forwarded-For: the
   * client address is read that many entries from its end. 0: the socket's address, the header ignored.
   */
  trustedProxyHops: number;
  /** Seconds between two refreshes of a connector's context store (PLUGBOARD_REPLICATION_INTERVAL, default one hour). */
  replicationIntervalSeconds: number;
  /** How long one search of the context store may run, in milliseconds (PLUGBOARD_SEARCH_BUDGET_MS); past it, a 422 query_too_expensive. */
  searchBudgetMs: number;
  /** The contact address the public API's organizations answer (PLUGBOARD_ORGANIZATION_EMAIL; see organizationEmailSetting). */
  organizationEmail: string;
  /** Webhook delivery and auto-disable thresholds (docs/notifications.md lists their variables). */
  notifications: NotificationSettings;
}

/**
 * Reads the deployment's settings from the environment (docs/operations.md lists them); a value
 * it cannot use is a ConfigurationError naming the variable.
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const host = env.HOST ?? '127.0.0.1';
  const port = integerSetting(env, 'PORT', 8080, 0, 65535);
  const headersTimeoutSeconds = integerSetting(env, 'PLUGBOARD_HEADERS_TIMEOUT_SECONDS', 10, 1);
  const requestTimeoutSeconds = integerSetting(env, 'PLUGBOARD_REQUEST_TIMEOUT_SECONDS', 30, 1);
  // Node refuses a headers timeout beyond the request timeout, which covers the headers too.
  if (headersTimeoutSeconds > requestTimeoutSeconds) {
    throw new ConfigurationError(
      `PLUGBOARD_HEADERS_TIMEOUT_SECONDS (${headersTimeoutSeconds}) must not exceed PLUGBOARD_REQUEST_TIMEOUT_SECONDS (${requestTimeoutSeconds})`,
    );
  }
  const publicUrl = publicUrlSetting(env, host, port);
  return {
    host,
    port,
    dataDir: resolve(env.PLUGBOARD_DATA_DIR ?? './data'),
    databaseUrl: databaseUrlSetting(env),
    publicUrl,
    organizationEmail: organizationEmailSetting(env, publicUrl),
    connectors: listSetting(env, 'PLUGBOARD_CONNECTORS'),
    baseUrls: (types) => baseUrlSettings(env, types),
    oauthUrls: (types) => oauthUrlSettings(env, types),
    egress: egressSetting(env),
    bodyLimitBytes: integerSetting(env, 'PLUGBOARD_BODY_LIMIT_BYTES', 1024 * 1024, 1),
    headersTimeoutSeconds,
    requestTimeoutSeconds,
    maxConnections: integerSetting(env, 'PLUGBOARD_MAX_CONNECTIONS', 1024, 1),
    trustedProxyHops: integerSetting(env, 'PLUGBOARD_TRUSTED_PROXY_HOPS', 0, 0, 10),
    replicationIntervalSeconds: integerSetting(env, 'PLUGBOARD_REPLICATION_INTERVAL', 3600, 1),
    searchBudgetMs: integerSetting(env, 'PLUGBOARD_SEARCH_BUDGET_MS', DEFAULT_SEARCH_BUDGET_MS, 1, 600_000),
    notifications: notificationSettingsFromEnv((name, fallback, min) => integerSetting(env, name, fallback, min), httpUrlSetting(env, 'PLUGBOARD_WEBAPP_URL')),
    credentialAttemptLimits: {
      failuresPerAddress: integerSetting(env, 'PLUGBOARD_TOKEN_FAILURES_PER_ADDRESS', DEFAULT_CREDENTIAL_ATTEMPT_LIMITS.failuresPerAddress, 1),
      failuresPerClient: integerSetting(env, 'PLUGBOARD_TOKEN_FAILURES_PER_CLIENT', DEFAULT_CREDENTIAL_ATTEMPT_LIMITS.failuresPerClient, 1),
      windowSeconds: DEFAULT_CREDENTIAL_ATTEMPT_LIMITS.windowSeconds,
    },
  };
}

/** A host as it goes in a URL: an IPv6 address in brackets (`::1` is `[::1]`), anything else as is. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * PLUGBOARD_PUBLIC_URL without its trailing slashes (it is the token issuer, and `new URL(path, it)`
 * builds widgetUrl), or by default http://HOST:PORT; either must be an absolute http(s) URL.
 */
function publicUrlSetting(env: NodeJS.ProcessEnv, host: string, port: number): string {
  const configured = httpUrlSetting(env, 'PLUGBOARD_PUBLIC_URL');
  if (configured !== undefined) return configured.replace(/\/+$/, '');
  const fallback = `http://${urlHost(host)}:${port}`;
  if (!URL.canParse(fallback)) {
    throw new ConfigurationError(
      `PLUGBOARD_PUBLIC_URL is unset and its default built from HOST and PORT, ${JSON.stringify(fallback)}, is not a URL: set PLUGBOARD_PUBLIC_URL`,
    );
  }
  return fallback;
}

/** PLUGBOARD_EGRESS_ALLOW: hosts, host:port, addresses and CIDR ranges the egress policy opens. */
function egressSetting(env: NodeJS.ProcessEnv): EgressPolicy {
  try {
    return EgressPolicy.fromSetting(env.PLUGBOARD_EGRESS_ALLOW);
  } catch (error) {
    throw new ConfigurationError((error as Error).message);
  }
}

import { inspect } from 'node:util';
import { InputError, SecretNotFoundError } from './errors.ts';
import { Secret } from './secret.ts';

/** Plugboard's hosted public API; self-managed deployments (or `npm start`) pass their own `apiRoot`. */
export const PLUGBOARD_CLOUD_API_ROOT = 'https://api.plugboard.dev/v1';
/** Airbyte Cloud's public API: its config API lives on another host, so it is named apart. */
export const AIRBYTE_CLOUD_API_ROOT = 'https://api.airbyte.com/v1';
export const AIRBYTE_CLOUD_CONFIG_API_ROOT = 'https://cloud.airbyte.com/api/v1';

/** The environment variables `fromEnv` reads. */
export const ENV = {
  bearerToken: 'PLUGBOARD_CLOUD_BEARER_TOKEN',
  clientId: 'PLUGBOARD_CLOUD_CLIENT_ID',
  clientSecret: 'PLUGBOARD_CLOUD_CLIENT_SECRET',
  apiUrl: 'PLUGBOARD_CLOUD_API_URL',
  workspaceId: 'PLUGBOARD_CLOUD_WORKSPACE_ID',
  localRoot: 'PLUGBOARD_CLOUD_LOCAL_ROOT',
} as const;

export interface CloudClientConfigOptions {
  clientId?: string | Secret | null;
  clientSecret?: string | Secret | null;
  bearerToken?: string | Secret | null;
  /** The public API's root, `.../v1` (default PLUGBOARD_CLOUD_API_ROOT). */
  apiRoot?: string;
  /** The config API's root (default: derived from apiRoot, see configApiRootFor). */
  configApiRoot?: string;
}

/**
 * How the library reaches the API: its root and exactly one way to authenticate, client credentials
 * (exchanged for short-lived tokens) or a bearer token used as is. Credentials are Secrets.
 */
export class CloudClientConfig {
  readonly clientId: Secret | null;
  readonly clientSecret: Secret | null;
  readonly bearerToken: Secret | null;
  readonly apiRoot: string;
  readonly #configApiRoot: string | undefined;

  constructor(options: CloudClientConfigOptions) {
    const given = (value: string | Secret | null | undefined) => (value === undefined || value === null || value === '' ? null : Secret.of(value));
    this.clientId = given(options.clientId);
    this.clientSecret = given(options.clientSecret);
    this.bearerToken = given(options.bearerToken);
    const credentials = this.clientId !== null || this.clientSecret !== null;
    if (this.bearerToken && credentials) throw new InputError('give either a bearer token or client credentials, not both', 'bearerToken');
    if (!this.bearerToken && !credentials) throw new InputError('give a bearer token or client credentials (clientId and clientSecret)', 'clientId');
    if (credentials && (!this.clientId || !this.clientSecret)) throw new InputError('client credentials need both clientId and clientSecret', 'clientSecret');
    this.apiRoot = trimSlash(options.apiRoot ?? PLUGBOARD_CLOUD_API_ROOT);
    if (!/^https?:\/\//.test(this.apiRoot)) throw new InputError(`apiRoot must be an http(s) URL, not ${JSON.stringify(this.apiRoot)}`, 'apiRoot');
    this.#configApiRoot = options.configApiRoot ? trimSlash(options.configApiRoot) : undefined;
  }

  /**
   * Reads the credentials from the environment: the bearer token first, else the client id and secret
   * (a missing one is a SecretNotFoundError). `apiRoot` beats PLUGBOARD_CLOUD_API_URL, which beats the default.
   */
  static fromEnv(apiRoot?: string, env: NodeJS.ProcessEnv = process.env): CloudClientConfig {
    const root = apiRoot ?? (env[ENV.apiUrl] || undefined);
    const bearerToken = env[ENV.bearerToken];
    if (bearerToken) return new CloudClientConfig({ bearerToken, apiRoot: root });
    const clientId = env[ENV.clientId];
    if (!clientId) throw new SecretNotFoundError(ENV.clientId);
    const clientSecret = env[ENV.clientSecret];
    if (!clientSecret) throw new SecretNotFoundError(ENV.clientSecret);
    return new CloudClientConfig({ clientId, clientSecret, apiRoot: root });
  }

  get usesBearerToken(): boolean {
    return this.bearerToken !== null;
  }

  get usesClientCredentials(): boolean {
    return this.clientId !== null && this.clientSecret !== null;
  }

  /** The config API's root: the one given, else derived from apiRoot (InputError when it cannot be). */
  get configApiRoot(): string {
    return this.#configApiRoot ?? configApiRootFor(this.apiRoot);
  }

  toString(): string {
    return `CloudClientConfig(apiRoot=${this.apiRoot}, auth=${this.usesBearerToken ? 'bearer token' : 'client credentials'})`;
  }

  toJSON(): Record<string, unknown> {
    return { apiRoot: this.apiRoot, clientId: this.clientId, clientSecret: this.clientSecret, bearerToken: this.bearerToken };
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/**
 * The config API's root for a public API root. The official description serves the config API at
 * `<host>/api` + `/v1/...` and a self-managed public API at `<host>/api/public/v1`; Plugboard serves
 * the public API at `<host>/v1` (and `/api/public/v1`) and the config API at `<host>/api/v1`.
 */
export function configApiRootFor(apiRoot: string): string {
  const root = trimSlash(apiRoot);
  if (root === AIRBYTE_CLOUD_API_ROOT) return AIRBYTE_CLOUD_CONFIG_API_ROOT;
  if (root.endsWith('/api/public/v1')) return `${root.slice(0, -'/api/public/v1'.length)}/api/v1`;
  if (root.endsWith('/v1')) return `${root.slice(0, -'/v1'.length)}/api/v1`;
  throw new InputError(`cannot derive the config API's root from ${root}: pass configApiRoot`, 'configApiRoot');
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

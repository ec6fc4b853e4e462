/**
 * The CDK's OAuthAuthenticator (DeclarativeOauth2Authenticator): an access token sent as
 * `Authorization: Bearer`, renewed at the token endpoint before it expires and kept for the rest of
 * the read. The renewal is a form POST (or a query, `send_refresh_request_as_query_params`) of the
 * grant type, the client credentials, the refresh token (refresh_token grant), `scopes` and the extra
 * `refresh_request_body` fields; the token and its lifetime are found by name anywhere in the answer
 * (five levels deep). A refused renewal is a refused credential. With `refresh_token_updater` the new
 * single-use refresh token is written into the read's config and reported as a config update.
 */
import { CredentialsExpiredError, PlugboardError, UpstreamError } from '../../../errors.ts';
import type { OAuthAuthenticator as OAuthComponent } from '../../model.ts';
import { formatWith, instantAt, parseWithFormats, type PyDateTime } from '../datetimes.ts';
import { getPath, setPath } from '../dpath.ts';
import { errorHandlerRuntime } from '../error-handler.ts';
import { decodeJsonOrEmpty } from '../json-decoder.ts';
import { ManifestReadError } from '../read-errors.ts';
import { type ReadRuntime, sendCounted } from '../read-runtime.ts';
import { pyText } from '../request-parts.ts';
import type { Authenticator } from './authenticator.ts';

/** Renew this long before the expiry, so that no request leaves with a token about to lapse. */
const RENEW_MARGIN_MS = 10_000;
/** The lifetime assumed when the token endpoint gives none. */
const DEFAULT_LIFETIME_MS = 3_600_000;
/** How deep the answer is searched for the token and its lifetime, as the CDK does. */
const SEARCH_DEPTH = 5;

export class OAuthAuthenticator implements Authenticator {
  private token: string | undefined;
  /** Epoch ms; the token is renewed from RENEW_MARGIN_MS before it. */
  private expiresAt = Number.NEGATIVE_INFINITY;
  private renewal: Promise<void> | undefined;
  /** A single-use refresh token received during this read. */
  private refreshToken: string | undefined;

  constructor(
    private readonly component: OAuthComponent,
    private readonly runtime: ReadRuntime,
  ) {
    const initial = component.access_token_value === undefined ? undefined : this.text(component.access_token_value);
    if (initial) {
      this.token = initial;
      const expiry = component.token_expiry_date === undefined ? undefined : this.text(component.token_expiry_date);
      // Without an expiry date the CDK takes "a day ago": renewed before its first use, unless there is nothing to renew with.
      this.expiresAt = expiry ? this.parseExpiryDate(expiry) : component.token_refresh_endpoint ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    }
  }

  async parts() {
    if (this.token === undefined || this.runtime.clock() >= this.expiresAt - RENEW_MARGIN_MS) {
      this.renewal ??= this.renew().finally(() => {
        this.renewal = undefined;
      });
      await this.renewal;
    }
    return { headers: { Authorization: `Bearer ${this.token}` } };
  }

  invalidate(): void {
    this.expiresAt = Number.NEGATIVE_INFINITY;
  }

  private context() {
    return { config: this.runtime.config, parameters: this.component.$parameters ?? {} };
  }

  private text(template: string): string | undefined {
    const value = this.runtime.templates.string(template, this.context());
    return value === null || value === undefined || value === '' ? undefined : pyText(value);
  }

  private updater(): Record<string, unknown> | undefined {
    const updater = this.component.refresh_token_updater;
    return updater && typeof updater === 'object' ? updater : undefined;
  }

  private currentRefreshToken(): string | undefined {
    if (this.refreshToken !== undefined) return this.refreshToken;
    const updater = this.updater();
    if (updater) {
      const path = (updater.refresh_token_config_path as string[] | undefined) ?? ['refresh_token'];
      const value = getPath(this.runtime.config, path);
      if (value !== undefined && value !== null) return pyText(value);
    }
    return this.component.refresh_token === undefined ? undefined : this.text(this.component.refresh_token);
  }

  private refreshFields(): Record<string, string | string[]> {
    const c = this.component;
    const grantType = (c.grant_type === undefined ? undefined : this.text(c.grant_type)) ?? 'refresh_token';
    const fields: Record<string, string | string[]> = { [c.grant_type_name ?? 'grant_type']: grantType };
    const put = (name: string, value: string | undefined) => {
      if (value !== undefined) fields[name] = value;
    };
    if (grantType === 'refresh_token') put(c.refresh_token_name ?? 'refresh_token', this.currentRefreshToken());
    const headers = this.refreshHeaders();
    // Client credentials go in the body unless the manifest sends them as an Authorization header.
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) {
      put(c.client_id_name ?? 'client_id', c.client_id === undefined ? undefined : this.text(c.client_id));
      put(c.client_secret_name ?? 'client_secret', c.client_secret === undefined ? undefined : this.text(c.client_secret));
    }
    if (Array.isArray(c.scopes) && c.scopes.length > 0) fields.scopes = c.scopes.map(String);
    if (c.refresh_request_body) {
      const extra = this.runtime.templates.mapping(c.refresh_request_body, this.context());
      // The standard fields win over extra ones of the same name.
      for (const [name, value] of Object.entries(extra))
        if (!Object.hasOwn(fields, name) && value !== null && value !== undefined) fields[name] = pyText(value);
    }
    return fields;
  }

  private refreshHeaders(): Record<string, string> {
    const headers = this.component.refresh_request_headers;
    if (!headers) return {};
    return Object.fromEntries(Object.entries(this.runtime.templates.mapping(headers, this.context())).map(([name, value]) => [name, pyText(value)]));
  }

  private async renew(): Promise<void> {
    const endpoint = this.component.token_refresh_endpoint === undefined ? undefined : this.text(this.component.token_refresh_endpoint);
    if (!endpoint) throw new ManifestReadError('OAuthAuthenticator has no token_refresh_endpoint to renew its access token at');
    const fields = this.refreshFields();
    const encoded = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) encoded.append(name, item);
    const asQuery = this.component.send_refresh_request_as_query_params === true;
    const url = new URL(endpoint);
    if (asQuery) for (const [name, value] of encoded) url.searchParams.append(name, value);
    let body: unknown;
    try {
      const answer = await sendCounted(
        this.runtime,
        async () => ({
          url: url.toString(),
          method: 'POST',
          headers: { ...(asQuery ? {} : { 'content-type': 'application/x-www-form-urlencoded' }), ...this.refreshHeaders() },
          ...(asQuery ? {} : { body: { kind: 'form' as const, value: encoded.toString() } }),
          credentialHeaders: Object.keys(this.refreshHeaders()),
        }),
        errorHandlerRuntime(undefined, this.runtime.templates, this.runtime.config, this.runtime.clock),
      );
      body = decodeJsonOrEmpty(answer.response.body);
    } catch (error) {
      if (error instanceof PlugboardError && refusedStatus(error) !== undefined) {
        throw new CredentialsExpiredError(
          `The OAuth token endpoint refused to renew the access token (upstream status ${refusedStatus(error)}): the refresh token or the client credentials are invalid or expired`,
        );
      }
      throw error;
    }
    const token = findKey(body, this.component.access_token_name ?? 'access_token');
    if (token === undefined || token === null || token === '') {
      throw new UpstreamError('The OAuth token endpoint answered without an access token', 'upstream_no_access_token');
    }
    this.token = pyText(token);
    this.expiresAt = this.expiryOf(findKey(body, this.component.expires_in_name ?? 'expires_in'));
    this.keepSingleUseToken(body);
  }

  private expiryOf(value: unknown): number {
    if (value === undefined || value === null || value === '') return this.runtime.clock() + DEFAULT_LIFETIME_MS;
    if (this.component.token_expiry_date_format) return this.parseExpiryDate(pyText(value));
    const seconds = Math.trunc(Number(value));
    if (!Number.isFinite(seconds))
      throw new UpstreamError('The OAuth token endpoint answered with an expiry that is not a number of seconds', 'upstream_invalid_token_expiry');
    return this.runtime.clock() + seconds * 1000;
  }

  private parseExpiryDate(text: string): number {
    const format = this.component.token_expiry_date_format;
    const parsed: PyDateTime | undefined = format ? parseWithFormats(text, [format]) : undefined;
    if (parsed) return parsed.timestamp() * 1000;
    const ms = Date.parse(text);
    if (Number.isNaN(ms)) throw new ManifestReadError('The OAuth token expiry date cannot be read as a datetime');
    return ms;
  }

  /** refresh_token_updater: the new refresh token (and the access token and its expiry) go into the config. */
  private keepSingleUseToken(body: unknown): void {
    const updater = this.updater();
    if (!updater) return;
    const name = (updater.refresh_token_name as string | undefined) ?? 'refresh_token';
    const renewed = findKey(body, name);
    if (renewed === undefined || renewed === null || renewed === '') return;
    this.refreshToken = pyText(renewed);
    const config = this.runtime.config;
    setPath(config, (updater.refresh_token_config_path as string[] | undefined) ?? ['refresh_token'], this.refreshToken);
    setPath(config, (updater.access_token_config_path as string[] | undefined) ?? ['credentials', 'access_token'], this.token);
    const expiry = formatWith(instantAt(this.expiresAt), this.component.token_expiry_date_format ?? '%Y-%m-%dT%H:%M:%S.%f%z');
    setPath(config, (updater.token_expiry_date_config_path as string[] | undefined) ?? ['credentials', 'token_expiry_date'], expiry);
    this.runtime.configUpdates.push({ config: structuredClone(config) });
  }
}

function refusedStatus(error: PlugboardError): number | undefined {
  const match = /^upstream_http_(\d+)$/.exec(error.error_code ?? '');
  const status = match ? Number(match[1]) : undefined;
  return status !== undefined && status >= 400 && status < 500 && status !== 429 ? status : undefined;
}

/** The CDK's recursive lookup: the key in this dict, else in its dicts and lists, breadth by breadth, SEARCH_DEPTH levels. */
function findKey(body: unknown, key: string, depth = 0): unknown {
  if (depth > SEARCH_DEPTH || body === null || typeof body !== 'object') return undefined;
  if (!Array.isArray(body) && Object.hasOwn(body, key)) return (body as Record<string, unknown>)[key];
  for (const value of Array.isArray(body) ? body : Object.values(body)) {
    const found = findKey(value, key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

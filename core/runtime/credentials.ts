import { invalidField } from '../errors.ts';
import { AUTH_KINDS, CREDENTIAL_FIELD, type AuthKind, type ConnectorDefinition } from '../sdk/index.ts';

const HEADER_SAFE_SECRET = /^[\x21-\x7e]+$/;

/** What an OAuth credential may carry beside its access token, so it can be refreshed. */
export const REFRESH_FIELDS = ['refresh_token', 'expires_at', 'client_id', 'client_secret', 'token_url'] as const;

/** How an OAuth credential is renewed: its refresh token, at the token endpoint, as its client. */
export interface RefreshGrant {
  refreshToken: string;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  /** Token endpoint codes that mean the grant is gone (the connector's `auth.oauth2.revokedCodes`). */
  revokedCodes: string[];
}

/** A credentials object read and checked: the header it is sent as, and its refresh grant when it has one. */
export interface CheckedCredentials {
  kind: AuthKind;
  /** The header's name, and how its value is made from an access token (or the personal token). */
  header: string;
  headerValue(secret: string): string;
  secret: string;
  refresh?: RefreshGrant;
  /** Epoch ms when the access token expires; undefined when unknown. */
  expiresAt?: number;
}

/**
 * Checks a credentials object (exactly one auth kind, one the connector accepts) and returns the
 * auth header it stands for. Errors name the fields, never their values.
 */
export function authHeadersFor(definition: ConnectorDefinition, credentials: unknown, loc: string[] = ['credentials']): Record<string, string> {
  const checked = readCredentials(definition, credentials, loc);
  return { [checked.header]: checked.headerValue(checked.secret) };
}

/** Checks a credentials object as `authHeadersFor` does, and reads its refresh grant and expiry. */
export function readCredentials(definition: ConnectorDefinition, credentials: unknown, loc: string[] = ['credentials']): CheckedCredentials {
  if (credentials === null || typeof credentials !== 'object' || Array.isArray(credentials)) {
    throw invalidField(loc, 'field required: an object with access_token (oauth) or token (personal access token)', 'value_error.missing');
  }
  const given = AUTH_KINDS.filter((kind) => CREDENTIAL_FIELD[kind] in credentials);
  const known: string[] = [...Object.values(CREDENTIAL_FIELD), ...REFRESH_FIELDS];
  const extra = Object.keys(credentials).filter((key) => !known.includes(key));
  if (extra.length > 0) throw invalidField([...loc, extra[0]!], 'extra fields not permitted; credentials carry access_token or token', 'value_error.extra');
  if (given.length !== 1) {
    throw invalidField(
      loc,
      'exactly one credential kind is required: access_token (oauth) or token (personal access token)',
      given.length === 0 ? 'value_error.missing' : 'value_error.credentials.ambiguous',
    );
  }
  const kind = given[0] as AuthKind;
  const field = CREDENTIAL_FIELD[kind];
  const values = credentials as Record<string, unknown>;
  const secret = headerSafeString(values, field, loc);
  const rule = definition.auth[kind];
  if (!rule) {
    const accepted = AUTH_KINDS.filter((k) => definition.auth[k]).map((k) => CREDENTIAL_FIELD[k]);
    throw invalidField(
      [...loc, field],
      `connector type "${definition.type}" does not accept ${kind} credentials; accepted: ${accepted.join(', ')}`,
      'value_error.credentials.unsupported',
    );
  }
  const refreshFields = REFRESH_FIELDS.filter((name) => values[name] !== undefined);
  if (kind === 'token' && refreshFields.length > 0) {
    throw invalidField([...loc, refreshFields[0]!], 'only OAuth credentials (access_token) are refreshed', 'value_error.extra');
  }
  return {
    kind,
    header: rule.header,
    headerValue: (value) => (rule.scheme ? `${rule.scheme} ${value}` : value),
    secret,
    ...(values.expires_at === undefined ? {} : { expiresAt: expiryOf(values.expires_at, [...loc, 'expires_at']) }),
    ...(values.refresh_token === undefined ? {} : { refresh: refreshGrantOf(definition, values, loc) }),
  };
}

/** The refresh grant of credentials that carry a refresh token: the client's id and secret are required, the token URL unless declared. */
function refreshGrantOf(definition: ConnectorDefinition, values: Record<string, unknown>, loc: string[]): RefreshGrant {
  const declared = definition.auth.oauth2;
  const tokenUrl = values.token_url === undefined ? declared?.tokenUrl : normalizeBaseUrl(values.token_url, [...loc, 'token_url']);
  if (tokenUrl === undefined) {
    throw invalidField([...loc, 'token_url'], `field required: connector type "${definition.type}" declares no OAuth token URL`, 'value_error.missing');
  }
  return {
    refreshToken: headerSafeString(values, 'refresh_token', loc),
    clientId: requiredString(values, 'client_id', loc),
    clientSecret: requiredString(values, 'client_secret', loc),
    tokenUrl,
    revokedCodes: declared?.revokedCodes ?? ['invalid_grant'],
  };
}

function requiredString(values: Record<string, unknown>, field: string, loc: string[]): string {
  const value = values[field];
  if (value === undefined) throw invalidField([...loc, field], 'field required with refresh_token', 'value_error.missing');
  if (typeof value !== 'string' || value.trim() === '') throw invalidField([...loc, field], 'value is not a valid non-empty string', 'type_error.str');
  return value;
}

function headerSafeString(values: Record<string, unknown>, field: string, loc: string[]): string {
  const value = values[field];
  if (typeof value !== 'string' || value.trim() === '') throw invalidField([...loc, field], 'value is not a valid non-empty string', 'type_error.str');
  // The secret travels in an HTTP header: a stray newline or a non-ASCII character is the caller's mistake, not an upstream failure.
  if (!HEADER_SAFE_SECRET.test(value))
    throw invalidField([...loc, field], 'must be printable ASCII without spaces or line breaks', 'value_error.credentials.characters');
  return value;
}

/** `expires_at` as epoch ms: an ISO 8601 time, or epoch seconds as OAuth answers count them. */
function expiryOf(value: unknown, loc: string[]): number {
  // A time without an offset is UTC, as OAuth's times are, not the server's local time.
  const text = typeof value === 'string' && /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value) ? `${value}Z` : value;
  const ms = typeof text === 'number' && Number.isFinite(text) && text >= 0 ? text * 1000 : typeof text === 'string' ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) throw invalidField(loc, 'must be an ISO 8601 time or epoch seconds', 'value_error.datetime');
  return ms;
}

/** Validates an instance's base URL (http or https) and drops a trailing slash so paths append cleanly. */
export function normalizeBaseUrl(baseUrl: unknown, loc: string[] = ['base_url']): string {
  if (typeof baseUrl !== 'string') throw invalidField(loc, 'value is not a valid string', 'type_error.str');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw invalidField(loc, 'invalid or missing URL scheme', 'value_error.url.scheme');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidField(loc, 'URL scheme must be http or https', 'value_error.url.scheme');
  if (url.username || url.password) throw invalidField(loc, 'URL must not carry credentials', 'value_error.url.userinfo');
  return baseUrl.replace(/\/+$/, '');
}

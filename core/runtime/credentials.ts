import { invalidField } from '../errors.ts';
import { AUTH_KINDS, CREDENTIAL_FIELD, type AuthKind, type ConnectorDefinition } from '../sdk/index.ts';

const HEADER_SAFE_SECRET = /^[\x21-\x7e]+$/;

/**
 * Checks a credentials object (exactly one auth kind, one the connector accepts) and returns the
 * auth header it stands for. Errors name the fields, never their values.
 */
export function authHeadersFor(definition: ConnectorDefinition, credentials: unknown, loc: string[] = ['credentials']): Record<string, string> {
  if (credentials === null || typeof credentials !== 'object' || Array.isArray(credentials)) {
    throw invalidField(loc, 'field required: an object with access_token (oauth) or token (personal access token)', 'value_error.missing');
  }
  const given = AUTH_KINDS.filter((kind) => CREDENTIAL_FIELD[kind] in credentials);
  const extra = Object.keys(credentials).filter((key) => !Object.values(CREDENTIAL_FIELD).includes(key as never));
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
  const secret = (credentials as Record<string, unknown>)[field];
  if (typeof secret !== 'string' || secret.trim() === '') throw invalidField([...loc, field], 'value is not a valid non-empty string', 'type_error.str');
  // The secret travels in an HTTP header: a stray newline or a non-ASCII character is the caller's mistake, not an upstream failure.
  if (!HEADER_SAFE_SECRET.test(secret))
    throw invalidField([...loc, field], 'must be printable ASCII without spaces or line breaks', 'value_error.credentials.characters');
  const rule = definition.auth[kind];
  if (!rule) {
    const accepted = Object.keys(definition.auth).map((k) => CREDENTIAL_FIELD[k as AuthKind]);
    throw invalidField(
      [...loc, field],
      `connector type "${definition.type}" does not accept ${kind} credentials; accepted: ${accepted.join(', ')}`,
      'value_error.credentials.unsupported',
    );
  }
  return { [rule.header]: rule.scheme ? `${rule.scheme} ${secret}` : secret };
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

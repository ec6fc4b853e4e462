import { fullFormats } from 'ajv-formats/dist/formats.js';
import { invalidField } from '../errors.ts';

/**
 * What the WHATWG URL parser forgives but an allowed origin must not carry has to be caught on the text itself: the
 * parser drops a trailing slash, an empty `?`, `#` or port (`host:`), surrounding whitespace and
 * `user@`, and reads `https:host` as `https://host`. So the text is a scheme, `://`, then an
 * authority with none of those characters (nor `*`: no wildcards) that does not end in `:`; the
 * parser does the rest.
 */
const ORIGIN_TEXT = /^https?:\/\/[^/?#@\\*\s]*[^/?#@\\*\s:]$/i;

/** DNS host names (RFC 1123 labels: no empty label, no leading or trailing hyphen): ajv-formats' `hostname` format. */
const HOSTNAME = fullFormats.hostname as RegExp;

const RULE =
  'allowed_origin must be a scheme (http or https) plus host and optional port 1-65535 (e.g. https://app.example.com or http://localhost:3000), with no trailing slash, path, query, credentials or wildcard';

/**
 * An allowed origin: scheme plus host, optionally a port; no trailing slash, no path, no wildcard. Answers the
 * origin as browsers serialise it in their `Origin` header (scheme and host lower-cased, a default
 * port dropped, an IDN in punycode); anything else is a 422 naming the rule.
 */
export function checkAllowedOrigin(value: string): string {
  const url = ORIGIN_TEXT.test(value) ? parse(value) : undefined;
  // The parser keeps an IPv6 literal in brackets and has already checked it; names must be DNS names.
  const hostOk = url !== undefined && (url.hostname.startsWith('[') || HOSTNAME.test(url.hostname));
  if (!url || !hostOk || url.port === '0') throw invalidField(['body', 'allowed_origin'], RULE, 'value_error.allowed_origin');
  return url.origin;
}

/**
 * Whether a browser's Origin header is the widget's allowed origin: scheme and host case-insensitively,
 * an explicit default port the same as none. `allowed` is as checkAllowedOrigin answered it (the only
 * way one gets into a widget token), so only the header needs parsing.
 */
export function originMatches(allowed: string, origin: string): boolean {
  return comparableOrigin(origin) === allowed;
}

/**
 * The form originMatches compares an Origin header in, or undefined when it does not parse: an origin
 * that does not parse matches no allowed origin (those are stored parsed), so it needs no look-up.
 */
export function comparableOrigin(origin: string): string | undefined {
  return parse(origin)?.origin;
}

function parse(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

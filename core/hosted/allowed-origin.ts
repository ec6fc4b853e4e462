import { invalidField } from '../errors.ts';

const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;

/**
 * SPEC 5.4: scheme plus host, optionally a port; no trailing slash, no path, no wildcard. Anything else
 * is a 422 naming the rule.
 */
export function checkAllowedOrigin(value: string): string {
  const port = /:(\d+)$/.exec(value)?.[1];
  if (!ORIGIN.test(value) || value.includes('*') || (port !== undefined && Number(port) > 65535)) {
    throw invalidField(
      ['body', 'allowed_origin'],
      'allowed_origin must be a scheme plus host and optional port (e.g. https://app.example.com or http://localhost:3000), with no trailing slash, path or wildcard',
      'value_error.allowed_origin',
    );
  }
  return value;
}

/** Whether a browser's Origin header is the widget's allowed origin (an explicit default port counts as the same origin). */
export function originMatches(allowed: string, origin: string): boolean {
  return normalize(allowed) === normalize(origin);
}

function normalize(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin;
  }
}

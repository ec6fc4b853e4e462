import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks 1.0 (standardwebhooks.com): every attempt carries `webhook-id` (the same on every
 * retry), `webhook-timestamp` (this attempt's Unix seconds) and `webhook-signature`, a space-separated
 * list of `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, one per secret in use.
 */

const SECRET_PREFIX = 'whsec_';

/** A new secret: 32 random bytes, shown as `whsec_<base64>` as the spec has it. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** A message id: no `.` (the signed content is dot-separated), never chosen by a tenant. */
export function newWebhookId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}

/** One `v1,<signature>` entry. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The headers of one attempt; no secret yet: no signature (Airbyte sends none), the id and time all the same. */
export function webhookHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  const headers: Record<string, string> = { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds) };
  if (secrets.length > 0) headers['webhook-signature'] = secrets.map((secret) => signWebhook(secret, id, timestampSeconds, body)).join(' ');
  return headers;
}

/**
 * What a receiver checks (docs/notifications.md has the same for its own code): a timestamp within
 * `toleranceSeconds` of now, and one `v1` entry equal to the expected signature, compared in constant time.
 */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  toleranceSeconds = 300,
  now = Date.now(),
): boolean {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const list = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof ts !== 'string' || typeof list !== 'string') return false;
  const timestamp = Number.parseInt(ts, 10);
  if (!Number.isFinite(timestamp) || Math.abs(Math.floor(now / 1000) - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, id, timestamp, body).slice(3), 'base64');
  return list.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

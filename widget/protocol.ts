import type { ConnectorRecord } from '../core/hosted/types.generated.ts';

/**
 * The messages between the widget page (in an iframe) and the host page that embeds it, compatible
 * with Airbyte's embedded widget protocol, so a host written for that works unchanged.
 */

/** Page → host: "send me the token" (on load, and again once the one it has expired). */
export const AUTH_TOKEN_REQUEST = 'auth_token_request';
/** Page → host: the end user closed the widget. */
export const CLOSE_DIALOG = 'CLOSE_DIALOG';

/** Host → page: the widget's scoped token (the `token` inside the base64 widget token). */
export interface TokenMessage {
  scopedAuthToken: string;
}

/** Page → host: what the end user did, and the source record or the error. */
export type EndUserActionResult =
  | { type: 'end_user_action_result'; message: 'source_created' | 'source_updated'; data: SourceRecord }
  | { type: 'end_user_action_result'; message: 'source_create_error' | 'source_update_error'; error: { detail: unknown; error_code: string } };

/** A source as the embedded API answers it (a connector record: never its credentials). */
export type SourceRecord = ConnectorRecord;

/**
 * Page → host: the height (px) the page's content takes, so the host's dialog fits it. It has no
 * `type`: hosts written for Airbyte's protocol hand every `{type}` message on as an event.
 */
export interface ContentHeightMessage {
  plugboardContentHeight: number;
}

export function isContentHeightMessage(data: unknown): data is ContentHeightMessage {
  const height = typeof data === 'object' && data !== null ? (data as { plugboardContentHeight?: unknown }).plugboardContentHeight : undefined;
  return typeof height === 'number' && Number.isFinite(height) && height > 0;
}

export function isTokenMessage(data: unknown): data is TokenMessage {
  return typeof data === 'object' && data !== null && typeof (data as { scopedAuthToken?: unknown }).scopedAuthToken === 'string';
}

/** Text from base64 in either alphabet, padded or not (JWT payloads, widget tokens); throws on anything else. */
export function decodeBase64Text(encoded: string): string {
  const base64 = encoded.trim().replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/**
 * Done page → widget page (its opener, same origin): how the end user's OAuth consent ended. Only the
 * consent's state and the single-use secret id (or the error code) ever travel in it.
 */
export const OAUTH_DONE = 'plugboard:oauth';
export interface OAuthDoneMessage {
  type: typeof OAUTH_DONE;
  state: string;
  secret_id?: string;
  error?: string;
}

export function isOAuthDoneMessage(data: unknown): data is OAuthDoneMessage {
  if (typeof data !== 'object' || data === null) return false;
  const { type, state, secret_id: secretId, error } = data as Record<string, unknown>;
  return (
    type === OAUTH_DONE &&
    typeof state === 'string' &&
    (secretId === undefined || typeof secretId === 'string') &&
    (error === undefined || typeof error === 'string')
  );
}

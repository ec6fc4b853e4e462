import type { UpstreamErrorSettings } from '../../core/sdk/index.ts';

/**
 * Slack answers errors with HTTP 200 and `{ok: false, error: <code>}`. A code that is the caller's fault
 * keeps its meaning (404 for a missing thing, 409 for a conflict, 400 otherwise); the workspace token
 * being refused or Slack failing is not the caller's fault, so it is a 502.
 */
export const slackErrors: UpstreamErrorSettings = {
  failureInBody: (body) => typeof body === 'object' && body !== null && 'ok' in body && body.ok === false,
  codePath: 'error',
  // Slack had not processed the call: retried after Retry-After, writes included.
  rateLimitCodes: ['ratelimited', 'rate_limited'],
  // Slack failed on its side; `fatal_error` may have half-applied a write, so only reads are retried.
  transientCodes: ['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout'],
  statusByCode: {
    channel_not_found: 404,
    user_not_found: 404,
    users_not_found: 404,
    message_not_found: 404,
    thread_not_found: 404,
    name_taken: 409,
    already_reacted: 409,
    is_archived: 409,
    already_archived: 409,
    not_authed: 502,
    invalid_auth: 502,
    account_inactive: 502,
    token_revoked: 502,
    token_expired: 502,
    no_permission: 502,
    missing_scope: 502,
    not_allowed_token_type: 502,
    internal_error: 502,
    fatal_error: 502,
    service_unavailable: 502,
    request_timeout: 502,
  },
};

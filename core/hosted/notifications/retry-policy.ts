/** What one attempt came to, as far as deciding on the next goes. */
export interface AttemptResult {
  statusCode?: number;
  retryAfterMs?: number;
  /** The egress policy refused the address. */
  refused?: boolean;
}

/**
 * When attempt number `attempt` (1 for the first) is tried again, or undefined when it is not: the
 * schedule is used up, the egress policy refused the address (only the operator can change that), or
 * the receiver answered 410 Gone (Standard Webhooks: the endpoint is gone). Every other answer that is
 * not a 2xx is tried again, 4xx included: a receiver still on the secret before a rotation answers 401
 * until it is updated, and Slack's own refusals cost nothing to retry. A Retry-After longer than the
 * next wait is honoured, up to the schedule's longest; a tenth of jitter keeps retries from marching together.
 */
export function nextAttemptAt(
  attempt: number,
  result: AttemptResult,
  delaysMs: readonly number[],
  now: number,
  random: () => number = Math.random,
): number | undefined {
  if (result.refused || result.statusCode === 410) return undefined;
  const delay = delaysMs[attempt - 1];
  if (delay === undefined) return undefined;
  const asked = Math.min(result.retryAfterMs ?? 0, Math.max(...delaysMs));
  const wait = Math.max(delay, asked);
  return now + wait + Math.floor(wait * 0.1 * random());
}

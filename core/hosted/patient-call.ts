import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimitedError } from '../errors.ts';

export interface PatienceOptions {
  /** Called before each wait (a lease renewal); throwing stops the waiting. */
  onProgress?: () => Promise<void>;
  /** Stops the waiting (server shutdown, a cancelled job). */
  signal?: AbortSignal;
  /** Longest wait after a rate limit before asking again. */
  maxRateLimitWaitMs?: number;
}

/**
 * A call made patient, for background work (replication, syncs): core's transport already retried a
 * rate limit a few times; this then waits as long as the upstream asks (bounded per wait) and asks
 * again, for as long as it takes.
 */
export function patient<A, R>(call: (args: A) => Promise<R>, options: PatienceOptions): (args: A) => Promise<R> {
  const maxWait = options.maxRateLimitWaitMs ?? 60_000;
  return async (args) => {
    for (let attempt = 0; ; attempt++) {
      options.signal?.throwIfAborted();
      try {
        return await call(args);
      } catch (error) {
        if (!(error instanceof RateLimitedError)) throw error;
        const hinted = error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : 1000 * 2 ** Math.min(attempt, 6);
        await options.onProgress?.();
        await sleep(Math.min(hinted, maxWait), undefined, { signal: options.signal });
      }
    }
  };
}

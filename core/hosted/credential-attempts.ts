import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AuthenticationError, RateLimitedError } from '../errors.ts';
import type { Store } from '../stores/types.ts';

export interface CredentialAttemptLimitOptions {
  /** Failed attempts one address may make per window; past them it is refused before anything is checked. */
  failuresPerAddress: number;
  /** Failed attempts for one client id, from anywhere, per window; past them its failures answer 429. */
  failuresPerClient: number;
  windowSeconds: number;
}

export const DEFAULT_CREDENTIAL_ATTEMPT_LIMITS: CredentialAttemptLimitOptions = { failuresPerAddress: 30, failuresPerClient: 30, windowSeconds: 60 };

/**
 * Limits on failed application-credential attempts, counted in the store so every instance sharing it
 * counts together. Only failures count: a client that knows its secret is never slowed down, and a
 * flood of wrong secrets for its client id can't lock it out (the right secret still gets a token),
 * while the flooding address is refused before its attempts cost a look-up.
 */
export class CredentialAttemptLimits {
  private readonly byAddress: RateLimiterAbstract;
  private readonly byClient: RateLimiterAbstract;
  private lastPrune = Date.now();

  constructor(
    private readonly store: Store,
    private readonly options: CredentialAttemptLimitOptions = DEFAULT_CREDENTIAL_ATTEMPT_LIMITS,
  ) {
    const window = { windowSeconds: options.windowSeconds, blockSeconds: options.windowSeconds };
    this.byAddress = store.rateLimiter({ keyPrefix: 'address', points: options.failuresPerAddress, ...window });
    this.byClient = store.rateLimiter({ keyPrefix: 'client', points: options.failuresPerClient, ...window });
  }

  /** Refuses (429) an address over its limit, before its credentials are looked at. */
  async admit(address: string): Promise<void> {
    const state = await this.byAddress.get(addressKey(address));
    if (state && state.consumedPoints > this.options.failuresPerAddress) throw tooManyAttempts(state.msBeforeNext);
  }

  /** Counts a failed attempt and answers it: 429 once the address or the client id is over its limit, else the 401 "Invalid authentication credentials". */
  async refuse(address: string, clientId: string): Promise<never> {
    this.pruneNowAndThen();
    const outcomes = await Promise.allSettled([this.byAddress.consume(addressKey(address)), this.byClient.consume(clientKey(clientId))]);
    const over: RateLimiterRes[] = [];
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') continue;
      if (!(outcome.reason instanceof RateLimiterRes)) throw outcome.reason; // the store failed, not the caller
      over.push(outcome.reason);
    }
    if (over.length > 0) throw tooManyAttempts(Math.max(...over.map((state) => state.msBeforeNext)));
    throw new AuthenticationError();
  }

  /** Expired counts are deleted on a failure at most every PRUNE_INTERVAL_MS; a failed prune waits for the next. */
  private pruneNowAndThen(): void {
    const now = Date.now();
    if (now - this.lastPrune < PRUNE_INTERVAL_MS) return;
    this.lastPrune = now;
    this.store.deleteExpiredCredentialAttempts(now).catch(() => undefined);
  }
}

/** Least time between two prunes of expired counts by one instance (a table-wide DELETE). */
const PRUNE_INTERVAL_MS = 5 * 60_000;

/**
 * The network an address stands for: an IPv6 host holds a whole /64 and could move through it at
 * will, so its failures count per /64; an IPv4-mapped address counts as the IPv4 one.
 */
export function addressKey(address: string): string {
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const [head = '', tail] = address.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** Client ids come from callers: hashed, any length and any text make a key of fixed size. */
function clientKey(clientId: string): string {
  return createHash('sha256').update(clientId).digest('base64url');
}

function tooManyAttempts(msBeforeNext: number): RateLimitedError {
  return new RateLimitedError(
    'Too many failed attempts with application credentials; try again later',
    Math.max(1, Math.ceil(msBeforeNext / 1000)),
    'too_many_attempts',
  );
}

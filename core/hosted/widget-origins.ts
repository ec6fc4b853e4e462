import type { Store } from '../stores/types.ts';
import { comparableOrigin } from './allowed-origin.ts';
import { CLOCK_SKEW_MS } from './token-service.ts';

/**
 * How long a refusal is remembered. Instances share the store but not this memory, so an origin
 * issued on another instance is refused here for at most this long; an allowed origin is remembered
 * only until its record expires, so the memory never allows what the store would not.
 */
export const REFUSAL_MEMORY_MS = 5_000;
/** Origins remembered at most (oldest forgotten first): preflights are unauthenticated, so the keys are anyone's. */
const MEMORY_SIZE = 10_000;
/** Longer than any origin the widget-token endpoint accepts (scheme, a 253-character DNS name, a port); a longer one is refused unread. */
const MAX_ORIGIN_LENGTH = 300;
/**
 * Least time between two prunes by one instance: the prune is a table-wide DELETE, so it runs on the
 * first write after this, not on every one. A row then outlives its expiry by at most the clock-skew
 * allowance plus this.
 */
const PRUNE_INTERVAL_MS = 60_000;

export interface WidgetOriginsOptions {
  /** Milliseconds since the epoch; tests move it past expiries. */
  clock?: () => number;
}

/**
 * The origins of live widget tokens, for CORS preflights: those carry no token, so the origin alone
 * decides, and it must be one some instance issued a widget token for that has not expired.
 */
export class WidgetOrigins {
  private readonly memory = new Map<string, { allowed: boolean; until: number }>();
  /** Counts records made here, so a look-up that raced one does not remember a refusal it made stale. */
  private recorded = 0;
  /** When this instance last started a prune (its clock); none yet, so the first write prunes. */
  private lastPrunedAt = -Infinity;
  private readonly clock: () => number;

  constructor(
    private readonly store: Store,
    options: WidgetOriginsOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
  }

  /**
   * Records the origin of a widget token until the token's `exp` (milliseconds), then (at most once a
   * PRUNE_INTERVAL_MS) prunes the records that expired over CLOCK_SKEW_MS ago (instances' clocks may
   * disagree that much), so the table holds about one row per live (workspace, origin) and can't grow
   * without bound.
   */
  async record(organizationId: string, workspaceId: string, origin: string, expiresAtMs: number): Promise<void> {
    await this.store.recordWidgetOrigin({
      organization_id: organizationId,
      workspace_id: workspaceId,
      origin,
      expires_at: new Date(expiresAtMs).toISOString(),
    });
    // A refusal remembered here must not outlive the record that now allows the origin.
    this.recorded++;
    this.memory.delete(origin);
    const now = this.clock();
    if (now - this.lastPrunedAt < PRUNE_INTERVAL_MS) return;
    const previous = this.lastPrunedAt;
    this.lastPrunedAt = now;
    // Best effort: a failed prune (e.g. a deadlock with another instance's) costs nothing now; the next write retries.
    await this.store.deleteExpiredWidgetOrigins(new Date(now - CLOCK_SKEW_MS).toISOString()).catch(() => {
      this.lastPrunedAt = previous;
    });
  }

  /** Whether an Origin header is, compared as originMatches does, the origin of a live widget token. */
  async isLive(header: string): Promise<boolean> {
    const origin = comparableOrigin(header);
    if (origin === undefined || origin.length > MAX_ORIGIN_LENGTH) return false;
    const now = this.clock();
    const remembered = this.memory.get(origin);
    if (remembered && remembered.until > now) return remembered.allowed;
    const recordedBefore = this.recorded;
    const liveUntil = await this.store.widgetOriginLiveUntil(origin, new Date(now).toISOString());
    // A record's expires_at only ever grows, and it is pruned only after it passed: allowed until then.
    const answer = liveUntil === null ? { allowed: false, until: now + REFUSAL_MEMORY_MS } : { allowed: true, until: Date.parse(liveUntil) };
    if (!answer.allowed && this.recorded !== recordedBefore) return false;
    this.memory.delete(origin);
    if (this.memory.size >= MEMORY_SIZE) this.memory.delete(this.memory.keys().next().value!);
    this.memory.set(origin, answer);
    return answer.allowed;
  }
}

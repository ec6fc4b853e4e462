import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { Deliveries, Outgoing } from './deliveries.ts';
import type { EventKind, NotificationEvent, NotificationEvents } from './notification-events.ts';

/**
 * What an event comes to, decided from what it reads before any transaction: a step run in the
 * expansion's transaction that makes its writes (a connection disabled, a catalog kept) and answers
 * the messages to queue.
 */
export type ExpansionStep = (tx: SqlDriver) => Promise<Outgoing[]>;
export type Expander = (event: NotificationEvent) => Promise<ExpansionStep>;

/** An event that calls for nothing (its job was cancelled, its owner has no webhook). */
export const NOTHING: ExpansionStep = async () => [];

const BATCH = 50;

/**
 * Turns recorded events into deliveries, oldest first. Each one's reads happen outside the transaction
 * (nothing slow holds SQLite's write lock); the transaction then marks it expanded, makes its writes
 * and queues its deliveries together, so a crash leaves it either whole or not begun, and of
 * instances racing for one event the first to mark it is the only one to queue anything.
 */
export class EventExpansion {
  constructor(
    private readonly db: SqlDriver,
    private readonly events: NotificationEvents,
    private readonly deliveries: Deliveries,
    private readonly expanders: Record<EventKind, Expander>,
    /** An event that could not be expanded: it stays, and the next look tries again. */
    private readonly failed: (error: unknown) => void,
  ) {}

  /** Expands what is pending; answers how many deliveries were queued. */
  async expandPending(): Promise<number> {
    let queued = 0;
    for (const event of await this.events.pending(BATCH)) {
      try {
        const step = await this.expanders[event.kind](event);
        queued += await this.db.transaction(async (tx) => {
          if (!(await this.events.take(tx, event.id))) return 0;
          const outgoing = await step(tx);
          for (const message of outgoing) await this.deliveries.add(message, tx);
          return outgoing.length;
        });
      } catch (error) {
        this.failed(error);
      }
    }
    return queued;
  }
}

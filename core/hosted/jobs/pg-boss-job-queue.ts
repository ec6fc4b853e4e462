import type PgBoss from 'pg-boss';
import { isUniqueViolation } from '../../stores/sql-driver.ts';
import { CoalescedRun } from './coalesced-run.ts';
import type { JobKind, JobQueue, JobQueueOptions } from './job-queue.ts';

/** What a pg-boss job carries: the durable job to look at. */
interface Look<K> {
  key: K;
}

/**
 * pg-boss 10 has no heartbeat (12 has, and needs Node 22): a running job's liveness is the lease on
 * its row, which the run renews. pg-boss's own expiration is only the backstop, so it is long.
 */
const BACKSTOP_EXPIRY_SECONDS = 23 * 3600;

/**
 * The job queue of a fleet sharing PostgreSQL, on pg-boss: every look at a durable job ("run job N
 * now", "at 12:05") is a pg-boss job, fetched by exactly one instance (SKIP LOCKED), delayed with
 * `startAfter`, and retried by pg-boss when the look itself failed. The `short` policy keeps one
 * queued look per job and time, so the tick that sends a look for every due job (a new one, or one
 * whose worker died and let its lease expire) never piles them up.
 *
 * Looks are fetched by this queue's own loops, not `boss.work()`: pg-boss 10's workers complete a
 * job without handling a failure of that query, which would end the process when the database drops.
 */
export class PgBossJobQueue<K extends string | number> implements JobQueue {
  private readonly loops: Promise<void>[] = [];
  /** Jobs this instance runs now: a second look at one (its lease renewal late) must not run it again beside itself. */
  private readonly running = new Set<K>();
  private readonly looking = new Set<Promise<void>>();
  private wakeUp: (() => void) | undefined;
  private napping: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly ticks = new CoalescedRun(
    () => this.tick(),
    (error) => this.kind.failed(error),
  );
  private stopped = false;

  constructor(
    private readonly boss: PgBoss,
    private readonly kind: JobKind<K>,
    private readonly options: JobQueueOptions,
  ) {}

  async start(): Promise<void> {
    if (this.timer || this.stopped) return;
    await this.createQueue();
    for (let i = 0; i < this.options.concurrency; i++) this.loops.push(this.fetchLoop());
    this.timer = setInterval(() => this.trigger(), this.options.pollMs);
    this.timer.unref();
    this.trigger();
  }

  trigger(): void {
    if (this.timer && !this.stopped) this.ticks.request();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.wake();
    await this.ticks.current;
    await Promise.allSettled(this.loops);
    await this.idle();
  }

  async idle(): Promise<void> {
    while (this.ticks.current || this.looking.size > 0) {
      await this.ticks.current;
      await Promise.allSettled(this.looking);
    }
  }

  /** Instances starting together may create the queue at once: PostgreSQL then reports a deadlock, and the loser tries again. */
  private async createQueue(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        if (await this.boss.getQueue(this.kind.name)) return;
        await this.boss.createQueue(this.kind.name, {
          name: this.kind.name,
          policy: 'short',
          retryLimit: 5,
          retryDelay: 1,
          expireInSeconds: BACKSTOP_EXPIRY_SECONDS,
        });
        return;
      } catch (error) {
        const deadlock = (error as { code?: string }).code === '40P01';
        if (attempt >= 5 || !(deadlock || isUniqueViolation(error))) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
      }
    }
  }

  /** One run slot: fetches a look, runs it, completes it (or fails it, for pg-boss to retry), and naps when there is none. */
  private async fetchLoop(): Promise<void> {
    while (!this.stopped) {
      // pg-boss's fetch answers no job when its query fails (the database unreachable): the loop naps and tries again.
      const [job] = await this.boss.fetch<Look<K>>(this.kind.name, { batchSize: 1 });
      if (!job) {
        await this.nap();
        continue;
      }
      const look = this.look(job.data.key).then(
        () => this.settle(() => this.boss.complete(this.kind.name, job.id)),
        (error: unknown) => this.settle(() => this.boss.fail(this.kind.name, job.id, { message: String(error) })),
      );
      this.looking.add(look);
      await look.finally(() => this.looking.delete(look));
    }
  }

  /** Reports a look's end to pg-boss; a failure (the database unreachable) is logged, and the look expires or is looked at again. */
  private async settle(report: () => Promise<unknown>): Promise<void> {
    await report().catch((error: unknown) => this.kind.failed(error));
  }

  /** Until the next poll, or until a look due now is sent from here. */
  private nap(): Promise<void> {
    this.napping ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.wake(), Math.max(this.options.pollMs, 500));
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    return this.napping;
  }

  private wake(): void {
    const wakeUp = this.wakeUp;
    this.wakeUp = undefined;
    this.napping = undefined;
    wakeUp?.();
  }

  /** Sends a look for every due job; one already queued for the same job makes the send a no-op. */
  private async tick(): Promise<void> {
    if (this.stopped) return;
    await this.kind.tick?.();
    for (const key of await this.kind.due(100)) await this.send(key);
  }

  /** One look at a job: run it when this instance can claim it, then queue the look at its next due time. */
  private async look(key: K): Promise<void> {
    // Running here already: that run sends the next look itself when it ends.
    if (this.running.has(key)) return;
    try {
      if (!this.stopped && (await this.kind.claim(key))) {
        this.running.add(key);
        try {
          await this.kind.run(key);
        } finally {
          this.running.delete(key);
        }
      }
      const next = await this.kind.nextDue(key);
      if (next) await this.send(key, next);
    } catch (error) {
      this.kind.failed(error);
      throw error; // pg-boss retries the look
    }
  }

  private async send(key: K, at?: Date): Promise<void> {
    const due = at && at.getTime() > Date.now() ? at : undefined;
    await this.boss.send(this.kind.name, { key } satisfies Look<K>, {
      singletonKey: due ? `${key}@${due.toISOString()}` : String(key),
      ...(due ? { startAfter: due } : {}),
    });
    // A look due now starts at once here if a loop is free; other instances find it at their next fetch.
    if (!due) this.wake();
  }
}

/**
 * Durable jobs (replication, sync) are rows in their own tables: the rows say what a job is, its
 * attempts and its lease. A job queue decides which instance looks at which job and when; the kind
 * of job decides what a look does (claim the row with a lease, run it). Two backends: polling the
 * rows (SQLite, one process) and pg-boss (PostgreSQL, a fleet of instances).
 */
export interface JobKind<K> {
  /** The kind's name: the pg-boss queue its jobs travel on. */
  readonly name: string;
  /** Jobs due now, up to `limit`: new ones, retries whose time came, runs whose worker's lease expired. */
  due(limit: number): Promise<K[]>;
  /** Takes the job for this instance; false when another took it first, or it is not due. */
  claim(key: K): Promise<boolean>;
  /** Runs a job this instance claimed. */
  run(key: K): Promise<void>;
  /** When the job is next due (a retry, the next refresh), or undefined when it is done or runs elsewhere. */
  nextDue(key: K): Promise<Date | undefined>;
  /** Work of every tick, busy or not (firing schedules). */
  tick?(): Promise<void>;
  /** A tick or a run that failed (the database unreachable); the next tick tries again. */
  failed(error: unknown): void;
}

export interface JobQueueOptions {
  /** How often due jobs are looked for. */
  pollMs: number;
  /** Runs at once on this instance. */
  concurrency: number;
}

export interface JobQueue {
  start(): Promise<void>;
  /** Looks for due jobs now (one was added). */
  trigger(): void;
  /** Stops taking jobs and waits for the runs in progress (their kind aborts them first). */
  stop(): Promise<void>;
  /** Settles when no run of this instance is in progress (tests). */
  idle(): Promise<void>;
}

/** Makes the queue of a kind of job, on the backend the deployment's database calls for. */
export type JobQueueFactory = <K extends string | number>(kind: JobKind<K>, options: JobQueueOptions) => JobQueue;

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobKind, JobQueue } from '../core/hosted/jobs/job-queue.ts';
import { jobSchemaOf, type JobQueues, openJobQueues, pollingJobQueues } from '../core/hosted/jobs/job-queues.ts';
import { createTestDatabase, type Backend, type TestDatabase } from './helpers/hosted-fixture.ts';

const BACKENDS: Backend[] = ['sqlite', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])];
const LEASE_MS = 300;

/** Job rows shared by every instance of a test (the database's part): a due time and a lease each. */
class Rows {
  private static made = 0;
  /** The queue of this test's instances: instances of other tests never take its looks. */
  readonly queueName = `plugboard_test_${++Rows.made}`;
  readonly jobs = new Map<number, { dueAt: number; owner?: string; leaseUntil: number; done: boolean }>();
  readonly runs: Array<{ key: number; instance: string }> = [];

  add(key: number, inMs = 0): void {
    this.jobs.set(key, { dueAt: Date.now() + inMs, leaseUntil: 0, done: false });
  }
}

/** One instance's view of the rows: claims with a lease as the real kinds do; a `crashed` one stops renewing and never finishes. */
class TestKind implements JobKind<number> {
  get name(): string {
    return this.rows.queueName;
  }
  crashed = false;
  /** False: the run stops renewing its lease (a database too slow to answer) but goes on. */
  renews = true;
  readonly errors: unknown[] = [];
  private readonly renewals = new Set<NodeJS.Timeout>();
  /** Ends a crashed instance's endless run when the test is over. */
  bury!: () => void;
  private readonly buried = new Promise<void>((resolve) => {
    this.bury = resolve;
  });

  constructor(
    private readonly rows: Rows,
    readonly instance: string,
    private readonly runMs: number,
  ) {}

  async due(limit: number): Promise<number[]> {
    const now = Date.now();
    return [...this.rows.jobs]
      .filter(([, job]) => !job.done && job.dueAt <= now && job.leaseUntil < now)
      .map(([key]) => key)
      .slice(0, limit);
  }

  async claim(key: number): Promise<boolean> {
    const job = this.rows.jobs.get(key)!;
    const now = Date.now();
    if (this.crashed || job.done || job.dueAt > now || job.leaseUntil >= now) return false;
    Object.assign(job, { owner: this.instance, leaseUntil: now + LEASE_MS });
    return true;
  }

  async run(key: number): Promise<void> {
    const job = this.rows.jobs.get(key)!;
    this.rows.runs.push({ key, instance: this.instance });
    const renew = setInterval(() => {
      if (!this.crashed && this.renews) job.leaseUntil = Date.now() + LEASE_MS;
    }, LEASE_MS / 4);
    this.renewals.add(renew);
    await Promise.race([new Promise((resolve) => setTimeout(resolve, this.runMs)), this.buried]);
    clearInterval(renew);
    // A crashed instance's run never ends its job: only the lease it stopped renewing says it died.
    if (this.crashed) return this.buried;
    Object.assign(job, { done: true, owner: undefined, leaseUntil: 0 });
  }

  async nextDue(key: number): Promise<Date | undefined> {
    const job = this.rows.jobs.get(key)!;
    return job.done || job.owner ? undefined : new Date(job.dueAt);
  }

  failed(error: unknown): void {
    this.errors.push(error);
  }

  stopRenewing(): void {
    for (const renew of this.renewals) clearInterval(renew);
  }
}

async function until(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(BACKENDS)('job queues on %s', (backend) => {
  let db: TestDatabase;
  const opened: JobQueues[] = [];
  const queues: JobQueue[] = [];
  const kinds: TestKind[] = [];

  async function instance(rows: Rows, name: string, runMs = 50): Promise<{ kind: TestKind; queue: JobQueue }> {
    const queues$ = db.databaseUrl ? await openJobQueues({ databaseUrl: db.databaseUrl, schema: db.schema }) : pollingJobQueues;
    opened.push(queues$);
    const kind = new TestKind(rows, name, runMs);
    kinds.push(kind);
    const queue = queues$.queue(kind, { pollMs: 100, concurrency: 2 });
    queues.push(queue);
    await queue.start();
    return { kind, queue };
  }

  beforeAll(async () => {
    db = await createTestDatabase(backend);
  });

  afterAll(async () => {
    for (const kind of kinds) kind.bury();
    await Promise.allSettled(queues.map((queue) => queue.stop()));
    await Promise.allSettled(opened.map((queues$) => queues$.close()));
    await db.drop();
  });

  it('runs every job once, and a job due later when it is due', async () => {
    const rows = new Rows();
    const a = await instance(rows, 'a');
    const b = backend === 'postgres' ? await instance(rows, 'b') : a;
    for (let key = 1; key <= 12; key++) rows.add(key);
    rows.add(13, 1_000);
    a.queue.trigger();
    b.queue.trigger();
    await until(() => [...rows.jobs.values()].every((job) => job.done));
    expect(rows.runs.map((run) => run.key).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    const late = rows.runs.find((run) => run.key === 13)!;
    expect(late).toBeDefined();
    if (backend === 'postgres') expect(new Set(rows.runs.map((run) => run.instance))).toEqual(new Set(['a', 'b']));
    expect([...a.kind.errors, ...b.kind.errors]).toEqual([]);
  });

  it('never runs a job twice beside itself on one instance, even when its lease lapses mid-run', async () => {
    const rows = new Rows();
    const slow = await instance(rows, 'slow', 1_500);
    slow.kind.renews = false;
    rows.add(200);
    slow.queue.trigger();
    await until(() => rows.jobs.get(200)!.done);
    expect(rows.runs.filter((run) => run.key === 200)).toHaveLength(1);
    expect(slow.kind.errors).toEqual([]);
  });

  it.runIf(backend === 'postgres')("takes over a dead instance's job once its lease expires", async () => {
    const rows = new Rows();
    const dying = await instance(rows, 'dying', 60_000);
    rows.add(100);
    dying.queue.trigger();
    await until(() => rows.runs.some((run) => run.key === 100));
    // The instance dies mid-run: it stops renewing its lease and never finishes.
    dying.kind.crashed = true;
    dying.kind.stopRenewing();
    const survivor = await instance(rows, 'survivor');
    await until(() => rows.jobs.get(100)!.done);
    expect(rows.runs.filter((run) => run.key === 100).map((run) => run.instance)).toEqual(['dying', 'survivor']);
    expect(survivor.kind.errors).toEqual([]);
  });
});

describe("the job queues' schema", () => {
  it("is named after the server's: the configured schema, else the URL's search_path, else pgboss", () => {
    expect(jobSchemaOf('postgres://u@h/db', 'tenant')).toBe('tenant_jobs');
    expect(jobSchemaOf('postgres://u@h/db?options=-c%20search_path%3Dapp', undefined)).toBe('app_jobs');
    expect(jobSchemaOf('postgres://u@h/db?options=-c+search_path%3Dapp', undefined)).toBe('app_jobs');
    // A socket URL, which WHATWG URL refuses.
    expect(jobSchemaOf('postgres://u:p@/db?host=/var/run/postgresql&options=-c search_path=app', undefined)).toBe('app_jobs');
    expect(jobSchemaOf('postgres://u@h/db', undefined)).toBe('pgboss');
    expect(jobSchemaOf('postgres://u@h/db?options=-c search_path=my-app', undefined)).toBe('pgboss');
  });
});

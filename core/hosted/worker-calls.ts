import { parentPort, type ResourceLimits, Worker } from 'node:worker_threads';
import { workerScript } from './worker-script.ts';

/** What a worker answers for each call: its value (a write's bytes, a read's rows) or nothing, or why it failed. */
export type WorkerReply = { seq: number; value?: unknown; error?: undefined } | { seq: number; error: string };

type Waiting<Result> = { resolve: (value: Result) => void; reject: (error: Error) => void };

/** One started thread and the calls it holds: a thread ended early fails only its own calls. */
interface Thread<Result> {
  worker: Worker;
  pending: Map<number, Waiting<Result>>;
  /** Why it ended, once it did: a call that waited for its start fails with it. */
  ended?: Error;
}

/**
 * Calls into a worker thread of ours (started at the first call), which serves them with
 * `serveCalls`: the SQLite writer threads of the context store and of sync destinations, and the
 * context store's reader threads. The worker module is TypeScript: the thread runs its bundle
 * (worker-script.ts), or where there is none, registers tsx's loader before importing it.
 */
export class WorkerCalls<Call, Result = number | undefined> {
  /** Starting, or started: calls wait for it in the order they were made. */
  private thread: Promise<Thread<Result>> | undefined;
  private seq = 0;

  constructor(
    private readonly module: URL,
    private readonly workerData: unknown,
    /** Names the thread in the error its death gives ("the context store's writer thread"). */
    private readonly label: string,
    /** The thread's heap limits, where its work is known to stay small. */
    private readonly resourceLimits?: ResourceLimits,
  ) {}

  /** Whether a thread is running (started by a call, not since ended or abandoned). */
  get running(): boolean {
    return this.thread !== undefined;
  }

  async call(call: Call): Promise<Result> {
    const thread = await this.started();
    if (thread.ended) throw thread.ended;
    const { worker, pending } = thread;
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      pending.set(seq, { resolve, reject });
      // Held open only while it has work: an idle destination thread never keeps the process alive.
      worker.ref();
      worker.postMessage({ seq, call });
    });
  }

  /** Sends the worker its last call (closing what it holds), then ends the thread. */
  async close(last: Call): Promise<void> {
    const thread = this.thread;
    if (!thread) return;
    try {
      await this.call(last);
    } finally {
      this.thread = undefined;
      await (await thread.catch(() => undefined))?.worker.terminate();
    }
  }

  /**
   * Ends the thread, failing its calls with `reason` at once; the next call starts another. Resolves
   * once the thread is gone: one inside a native call (a SQLite statement) stops only when that call
   * returns to JavaScript, and until then it burns its own core, never the caller's event loop.
   */
  async abandon(reason: Error): Promise<void> {
    const starting = this.thread;
    if (!starting) return;
    this.thread = undefined;
    const thread = await starting.catch(() => undefined);
    if (!thread) return;
    failAll(thread, reason);
    thread.worker.unref();
    await thread.worker.terminate().catch(() => undefined);
  }

  private started(): Promise<Thread<Result>> {
    if (!this.thread) {
      const starting = this.start();
      this.thread = starting;
      // A thread that could not start is started again by the next call.
      starting.catch(() => {
        if (this.thread === starting) this.thread = undefined;
      });
    }
    return this.thread;
  }

  private async start(): Promise<Thread<Result>> {
    const limits = this.resourceLimits ? { resourceLimits: this.resourceLimits } : {};
    const script = await workerScript(this.module);
    const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(this.module.href)}); });`;
    const thread: Thread<Result> = {
      // A bundle needs none of the process's flags (its --import of tsx above all).
      worker: script
        ? new Worker(script, { workerData: this.workerData, execArgv: [], ...limits })
        : new Worker(bootstrap, { eval: true, workerData: this.workerData, ...limits }),
      pending: new Map(),
    };
    const { worker, pending } = thread;
    worker.on('message', (reply: WorkerReply) => {
      const waiting = pending.get(reply.seq);
      pending.delete(reply.seq);
      if (pending.size === 0) worker.unref();
      if (reply.error === undefined) waiting?.resolve(reply.value as Result);
      else waiting?.reject(new Error(reply.error));
    });
    // A thread that died fails what it held, and the next call starts another; `current` is the promise
    // stored for this start, so a later thread's is never cleared by this one's death.
    const current = this.thread;
    const fail = (error: Error) => {
      if (this.thread === current) this.thread = undefined;
      failAll(thread, error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`${this.label} exited (code ${code})`)));
    return thread;
  }
}

function failAll<Result>(thread: Thread<Result>, error: Error): void {
  thread.ended ??= error;
  for (const waiting of thread.pending.values()) waiting.reject(error);
  thread.pending.clear();
}

/** In a worker thread: answers each call `WorkerCalls` sends with what `handle` resolves to, or its failure's message. */
export function serveCalls<Call>(handle: (call: Call) => Promise<unknown>): void {
  parentPort!.on('message', ({ seq, call }: { seq: number; call: Call }) => {
    // A handler that throws before its first await fails its call, not the thread.
    new Promise((resolve) => resolve(handle(call))).then(
      (value) => parentPort!.postMessage({ seq, ...(value === undefined ? {} : { value }) } satisfies WorkerReply),
      (error: unknown) => parentPort!.postMessage({ seq, error: error instanceof Error ? error.message : String(error) } satisfies WorkerReply),
    );
  });
}

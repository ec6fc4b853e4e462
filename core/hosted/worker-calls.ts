import { parentPort, Worker } from 'node:worker_threads';

/** What a worker answers for each call: a number (a write's bytes) or nothing, or why it failed. */
export type WorkerReply = { seq: number; value?: number; error?: undefined } | { seq: number; error: string };

/**
 * Calls into a worker thread of ours (started at the first call), which serves them with
 * `serveCalls`: the SQLite writer threads of the context store and of sync destinations. The worker
 * module is TypeScript: tsx's loader is registered in the thread before the module is imported.
 */
export class WorkerCalls<Call> {
  private worker: Worker | undefined;
  private seq = 0;
  private readonly pending = new Map<number, { resolve: (value: number | undefined) => void; reject: (error: Error) => void }>();

  constructor(
    private readonly module: URL,
    private readonly workerData: unknown,
    /** Names the thread in the error its death gives ("the context store's writer thread"). */
    private readonly label: string,
  ) {}

  call(call: Call): Promise<number | undefined> {
    const worker = this.started();
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      // Held open only while it has work: an idle destination thread never keeps the process alive.
      worker.ref();
      worker.postMessage({ seq, call });
    });
  }

  /** Sends the worker its last call (closing what it holds), then ends the thread. */
  async close(last: Call): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    try {
      await this.call(last);
    } finally {
      this.worker = undefined;
      await worker.terminate();
    }
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(this.module.href)}); });`;
    const worker = new Worker(bootstrap, { eval: true, workerData: this.workerData });
    worker.on('message', (reply: WorkerReply) => {
      const waiting = this.pending.get(reply.seq);
      this.pending.delete(reply.seq);
      if (this.pending.size === 0) worker.unref();
      if (reply.error === undefined) waiting?.resolve(reply.value);
      else waiting?.reject(new Error(reply.error));
    });
    // A thread that died fails what it held; the next call starts another.
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`${this.label} exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

/** In a worker thread: answers each call `WorkerCalls` sends with what `handle` resolves to, or its failure's message. */
export function serveCalls<Call>(handle: (call: Call) => Promise<unknown>): void {
  parentPort!.on('message', ({ seq, call }: { seq: number; call: Call }) => {
    handle(call).then(
      (value) => parentPort!.postMessage({ seq, ...(typeof value === 'number' ? { value } : {}) } satisfies WorkerReply),
      (error: unknown) => parentPort!.postMessage({ seq, error: error instanceof Error ? error.message : String(error) } satisfies WorkerReply),
    );
  });
}

import { AsyncResource } from 'node:async_hooks';

/**
 * A task run on demand, one run at a time: a demand during a run (a job created after its query
 * ran) makes exactly one more run when it ends, however many came.
 */
export class CoalescedRun {
  private running: Promise<void> | undefined;
  private again = false;
  private readonly task: () => Promise<void>;

  constructor(
    task: () => Promise<void>,
    private readonly failed: (error: unknown) => void,
  ) {
    // Runs in the context it was made in, not in that of whoever asked: a request's caller (its permissions) stays out of the workers.
    this.task = AsyncResource.bind(task);
  }

  /** The run in progress, if any. */
  get current(): Promise<void> | undefined {
    return this.running;
  }

  request(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.task()
      .catch(this.failed)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.request();
        }
      });
  }
}

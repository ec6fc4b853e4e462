import type { SyncProgress } from '../../core/cloud-client/index.ts';
import { formatBytes, formatCount, formatSeconds } from './common.ts';

/**
 * A sync job's progress while it is waited for. On a terminal one line, rewritten in place at every poll
 * and every second (the elapsed time); otherwise (a pipe, a log file) a line whenever the status or the
 * counts change.
 */
export class ProgressDisplay {
  readonly #stream: NodeJS.WriteStream;
  readonly #tty: boolean;
  readonly #started = Date.now();
  #last: SyncProgress | undefined;
  #printed = '';
  #timer: NodeJS.Timeout | undefined;

  constructor(stream: NodeJS.WriteStream = process.stderr) {
    this.#stream = stream;
    this.#tty = stream.isTTY === true;
    if (this.#tty) this.#timer = setInterval(() => this.#render(), 1000).unref();
  }

  update(progress: SyncProgress): void {
    this.#last = progress;
    if (this.#tty) return this.#render();
    const line = describe(progress);
    if (line === this.#printed) return;
    this.#printed = line;
    this.#stream.write(`${line}  (${formatSeconds(progress.elapsedSeconds)})\n`);
  }

  /** Ends the display (the terminal's line kept); safe to call more than once. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#tty && this.#printed !== '') this.#stream.write('\n');
    this.#printed = '';
  }

  #render(): void {
    if (!this.#last || !this.#timer) return;
    this.#printed = `${describe(this.#last)}  (${formatSeconds((Date.now() - this.#started) / 1000)})`;
    this.#stream.write(`\r\x1b[2K${this.#printed}`);
  }
}

function describe(progress: SyncProgress): string {
  return `job ${progress.jobId} ${progress.status}: ${formatCount(progress.recordsSynced)} records, ${formatBytes(progress.bytesSynced)}`;
}

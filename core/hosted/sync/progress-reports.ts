/** Between two reports of an attempt's counts: each is a durable write of the job's row. */
const REPORT_EVERY_MS = 1000;

/**
 * What an attempt wrote, reported at most once a second and at its end: the reported counts trail
 * what is written by a second at most, never run ahead of it.
 */
export class ProgressReports {
  private rows = 0;
  private bytes = 0;
  private reportedAt = Date.now();

  constructor(private readonly report: (rows: number, bytes: number) => Promise<void>) {}

  async add(rows: number, bytes: number): Promise<void> {
    this.rows += rows;
    this.bytes += bytes;
    if (Date.now() - this.reportedAt >= REPORT_EVERY_MS) await this.flush();
  }

  async flush(): Promise<void> {
    const [rows, bytes] = [this.rows, this.bytes];
    this.rows = 0;
    this.bytes = 0;
    this.reportedAt = Date.now();
    if (rows > 0 || bytes > 0) await this.report(rows, bytes);
  }
}

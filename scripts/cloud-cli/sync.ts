import { Command, InvalidArgumentError } from 'commander';
import { ConnectionSyncTimeoutError, FAILED_STATUSES, type JobStatus, type SyncProgress } from '../../core/cloud-client/index.ts';
import {
  CliError,
  formatBytes,
  formatCount,
  formatDuration,
  formatSeconds,
  formatTime,
  isJson,
  nonNegativeNumber,
  printJson,
  printTable,
  println,
  wholeNumber,
  workspaceOf,
} from './common.ts';
import { ProgressDisplay } from './progress.ts';

const PROGRAM = 'plugboard cloud';

function pollInterval(value: string): number {
  const seconds = nonNegativeNumber(value);
  if (seconds < 0.05) throw new InvalidArgumentError('Give at least 0.05 seconds.');
  return seconds;
}

/** Why the wait stopped when Ctrl-C is pressed. */
class Interrupted extends Error {}

/** `cloud sync <connection> [--wait]` */
export function syncCommand(): Command {
  return new Command('sync')
    .description('Start a sync job of a connection; with --wait, follow it to its end (exit 1 unless it succeeds)')
    .argument('<connection>', "the connection's id")
    .option('--wait', 'wait for the job to end, showing its progress on stderr (Ctrl-C stops waiting, not the job)')
    .option('--timeout <seconds>', 'with --wait: how long to wait before giving up (the job keeps running)', nonNegativeNumber, 300)
    .option('--poll-interval <seconds>', 'with --wait: the first pause between polls, growing 1.5 times up to 10 s', pollInterval, 1)
    .action(async (connectionId: string, options: { wait?: boolean; timeout: number; pollInterval: number }, command: Command) => {
      const json = isJson(command);
      const connection = workspaceOf(command).getConnection(connectionId);
      const result = await connection.runSync({ wait: false });
      const started = await result.jobInfo();
      if (!options.wait) {
        if (json) return printJson({ connectionId, jobId: result.jobId, status: started.status });
        println(`Started sync job ${result.jobId} of connection ${connectionId} (${started.status}).`);
        println(`Follow it with: ${PROGRAM} jobs ${connectionId}`);
        return;
      }
      process.stderr.write(`Started sync job ${result.jobId} of connection ${connectionId}; waiting (Ctrl-C stops waiting, not the job).\n`);

      const controller = new AbortController();
      const onInterrupt = () => {
        if (controller.signal.aborted) process.exit(130);
        controller.abort(new Interrupted());
      };
      process.on('SIGINT', onInterrupt);
      const display = new ProgressDisplay(process.stderr);
      let last: SyncProgress | undefined;
      let status: JobStatus;
      try {
        status = await result.waitForCompletion({
          waitTimeout: options.timeout,
          raiseTimeout: true,
          raiseFailure: false,
          signal: controller.signal,
          pollInterval: options.pollInterval,
          maxPollInterval: Math.max(10, options.pollInterval),
          onProgress: (progress) => {
            last = progress;
            display.update(progress);
          },
        });
      } catch (error) {
        display.stop();
        if (controller.signal.aborted) {
          process.stderr.write(`${PROGRAM}: stopped waiting; sync job ${result.jobId} keeps running (${PROGRAM} jobs ${connectionId})\n`);
          process.exitCode = 130;
          return;
        }
        if (error instanceof ConnectionSyncTimeoutError) throw new CliError(`${error.message}; it keeps running (${PROGRAM} jobs ${connectionId})`);
        throw error;
      } finally {
        process.off('SIGINT', onInterrupt);
        display.stop();
      }

      const summary = {
        connectionId,
        jobId: result.jobId,
        status,
        recordsSynced: last?.recordsSynced ?? 0,
        bytesSynced: last?.bytesSynced ?? 0,
        elapsedSeconds: last?.elapsedSeconds ?? 0,
      };
      if (json) printJson(summary);
      else {
        println(
          `Sync job ${result.jobId} ${status}: ${formatCount(summary.recordsSynced)} records, ${formatBytes(summary.bytesSynced)} in ${formatSeconds(summary.elapsedSeconds)}.`,
        );
      }
      if (FAILED_STATUSES.has(status)) throw new CliError(`sync job ${result.jobId} ${status} (${PROGRAM} logs ${connectionId} --job ${result.jobId})`);
    });
}

/** `cloud jobs <connection>` */
export function jobsCommand(): Command {
  return new Command('jobs')
    .description("List a connection's sync jobs, newest first")
    .argument('<connection>', "the connection's id")
    .option('--limit <n>', 'how many', wholeNumber(1), 20)
    .option('--offset <n>', 'how many to skip', wholeNumber(0), 0)
    .option('--oldest-first', 'oldest first instead')
    .action(async (connectionId: string, options: { limit: number; offset: number; oldestFirst?: boolean }, command: Command) => {
      const connection = workspaceOf(command).getConnection(connectionId);
      const results = await connection.getPreviousSyncLogs({ limit: options.limit, offset: options.offset, fromTail: !options.oldestFirst });
      const jobs = await Promise.all(results.map((result) => result.jobInfo()));
      if (isJson(command)) return printJson(jobs);
      printTable(
        ['JOB', 'STATUS', 'STARTED', 'DURATION', 'RECORDS', 'BYTES'],
        jobs.map((job) => [
          String(job.jobId),
          job.status,
          formatTime(job.startTime),
          formatDuration(job.duration),
          formatCount(job.rowsSynced ?? 0),
          formatBytes(job.bytesSynced ?? 0),
        ]),
        `No sync jobs of connection ${connectionId}.`,
      );
    });
}

/** `cloud logs <connection>` */
export function logsCommand(): Command {
  return new Command('logs')
    .description("Show a sync job's attempts and their logs (the newest job unless --job)")
    .argument('<connection>', "the connection's id")
    .option('--job <id>', 'the job', wholeNumber(0))
    .option('--limit <lines>', 'only the last <lines> log lines of each attempt', wholeNumber(1))
    .action(async (connectionId: string, options: { job?: number; limit?: number }, command: Command) => {
      const connection = workspaceOf(command).getConnection(connectionId);
      const result = await connection.getSyncResult(options.job);
      if (!result) throw new CliError(`connection ${connectionId} has no sync jobs yet`);
      const [job, attempts] = await Promise.all([result.jobInfo(), result.getAttempts()]);
      const shown = attempts.map((attempt) => ({
        ...attempt,
        totalLogLines: attempt.logLines.length,
        logLines: options.limit === undefined ? attempt.logLines : attempt.logLines.slice(-options.limit),
      }));
      if (isJson(command)) return printJson({ connectionId, jobId: job.jobId, status: job.status, attempts: shown });
      if (shown.length === 0) return println(`Job ${job.jobId} (${job.status}) has no attempts yet.`);
      for (const attempt of shown) {
        const ended = attempt.endedAt ? ` to ${formatTime(attempt.endedAt)}` : '';
        println(
          `== job ${job.jobId}, attempt ${attempt.attemptNumber}: ${attempt.status}, ${formatCount(attempt.recordsSynced)} records, ` +
            `${formatBytes(attempt.bytesSynced)}, ${formatTime(attempt.createdAt)}${ended} ==`,
        );
        for (const failure of attempt.failures) println(`failure${failure.origin ? ` (${failure.origin})` : ''}: ${failure.message ?? 'no message'}`);
        if (attempt.logLines.length < attempt.totalLogLines) println(`(the last ${attempt.logLines.length} of ${attempt.totalLogLines} lines)`);
        for (const line of attempt.logLines) println(line);
      }
    });
}

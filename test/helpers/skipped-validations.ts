import { appendFileSync } from 'node:fs';

/**
 * Validations against an official spec that could not run because the spec is not on this machine.
 * Only the validation step skips: the behaviour around it still runs. Counted per test file and
 * reported once for the whole run (skipped-validations.setup.ts), not once per file.
 */
const skipped = new Map<string, number>();

/** The file the run's count goes to, set by the global setup before any worker starts. */
export const SKIP_LOG_VARIABLE = 'PLUGBOARD_SKIPPED_VALIDATIONS_LOG';

export function recordSkippedValidation(label: string): void {
  skipped.set(label, (skipped.get(label) ?? 0) + 1);
}

/** Hands this file's count to the run's log (called after each test file). */
export function flushSkippedValidations(): void {
  const log = process.env[SKIP_LOG_VARIABLE];
  if (!log || skipped.size === 0) return;
  appendFileSync(log, [...skipped].map(([label, count]) => `${label}\t${count}\n`).join(''));
  skipped.clear();
}

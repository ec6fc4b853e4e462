import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SKIP_LOG_VARIABLE } from './skipped-validations.ts';

/**
 * Once per run: says in one line how many spec validations were skipped (and how to have them), and
 * that PostgreSQL variants were left out without TEST_DATABASE_URL.
 */
export default function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'plugboard-skips-'));
  const log = join(dir, 'skipped.tsv');
  process.env[SKIP_LOG_VARIABLE] = log;
  return () => {
    let text = '';
    try {
      text = readFileSync(log, 'utf8');
    } catch {
      // No file wrote a line: nothing was skipped.
    }
    rmSync(dir, { recursive: true, force: true });
    const byLabel = new Map<string, number>();
    for (const line of text.split('\n').filter(Boolean)) {
      const [label, count] = line.split('\t') as [string, string];
      byLabel.set(label, (byLabel.get(label) ?? 0) + Number(count));
    }
    const total = [...byLabel.values()].reduce((sum, count) => sum + count, 0);
    if (total > 0) {
      const labels = [...byLabel.keys()].sort().join(', ');
      process.stdout.write(
        `${total} spec validations skipped (${labels}): the official specs are not on this machine; npm run specs:fetch brings Slack's and Drive's, Airbyte's are read from ../shared/specs or AIRBYTE_API_SDK_SPEC, AIRBYTE_API_SPEC, AIRBYTE_CONFIG_API_SPEC\n`,
      );
    }
    if (!process.env.TEST_DATABASE_URL)
      process.stdout.write('PostgreSQL variants skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run them\n');
  };
}

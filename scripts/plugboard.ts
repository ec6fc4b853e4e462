#!/usr/bin/env tsx
/**
 * The `plugboard` command (`npx plugboard ...`, package.json "bin" through scripts/plugboard.mjs, which
 * registers tsx), for now `plugboard cloud ...`: see `npx plugboard cloud --help`. Failures are one line
 * on stderr and exit code 1, never a stack trace; credentials are read from the environment, never printed.
 */
import { Command } from 'commander';
import { cloudCommand } from './cloud-cli/index.ts';
import { describeError, oneLine } from './cloud-cli/common.ts';

const program = new Command()
  .name('plugboard')
  .description('Plugboard on the command line')
  .showHelpAfterError('(add --help for usage)')
  .addCommand(cloudCommand());

try {
  await program.parseAsync(process.argv);
} catch (error) {
  console.error(`plugboard cloud: ${oneLine(describeError(error))}`);
  process.exitCode = 1;
}

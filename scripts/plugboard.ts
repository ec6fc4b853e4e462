#!/usr/bin/env tsx
/**
 * The `plugboard` command (`npx plugboard ...`, package.json "bin" through scripts/plugboard.mjs, which
 * registers tsx), for now `plugboard cloud ...`: see `npx plugboard cloud --help`. Failures are one line
 * on stderr and exit code 1, never a stack trace; credentials are read from the environment, never printed.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { cloudCommand } from './cloud-cli/index.ts';
import { describeError, oneLine } from './cloud-cli/common.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command()
  .name('plugboard')
  .description('Plugboard on the command line')
  .version(version, '-V, --version', "print Plugboard's version")
  .showHelpAfterError('(add --help for usage)')
  .addCommand(cloudCommand())
  // Without a command: the help, as a first look, and success (nothing went wrong).
  .allowExcessArguments()
  .action((_options: unknown, command: Command) => {
    if (command.args.length > 0) program.error(`error: unknown command '${command.args[0]}'`);
    program.outputHelp();
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  console.error(`plugboard cloud: ${oneLine(describeError(error))}`);
  process.exitCode = 1;
}

import { ConfigurationError } from '../core/configuration-error.ts';

/**
 * Runs a command (`npm start`, `npm run admin`); a ConfigurationError, a deployment mistake the operator
 * must fix, ends the process with exit code 1 and one line on stderr, `prefix` then what is wrong: no
 * stack trace in the way. Any other error propagates as it would.
 */
export async function exitOnConfigurationError<T>(prefix: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    console.error(`${prefix}${error.message.replace(/\s*\n\s*/g, ' ')}`);
    process.exit(1);
  }
}

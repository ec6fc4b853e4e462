import { AuthenticationError } from '../errors.ts';
import { MissingReferenceError } from '../stores/types.ts';

/**
 * Runs a write on behalf of a token's organization or workspace. A correctly signed token may name
 * one that no longer exists (removed since, or a database restored from before it): that token is
 * no longer valid, a 401, not a foreign-key failure.
 */
export async function forTokenSubject<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof MissingReferenceError) throw new AuthenticationError();
    throw error;
  }
}

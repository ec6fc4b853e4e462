import { type ErrorBody, NotFoundError } from '../../core/errors.ts';

/**
 * An unknown id in the config API's shape (`message`, and the `id` asked for), with this server's
 * `detail` and `error_code` beside it.
 */
class ConfigNotFoundError extends NotFoundError {
  constructor(
    readonly id: string,
    cause: NotFoundError,
  ) {
    super(typeof cause.detail === 'string' ? cause.detail : `${id} not found`, cause.error_code);
  }

  override toJSON(): ErrorBody & { id: string; message: string } {
    return { ...super.toJSON(), id: this.id, message: this.message };
  }
}

/** The answer, or its NotFoundError in the config API's shape. */
export function configNotFound<T>(id: string, answer: Promise<T>): Promise<T> {
  return answer.catch((error: unknown) => {
    throw error instanceof NotFoundError ? new ConfigNotFoundError(id, error) : error;
  });
}

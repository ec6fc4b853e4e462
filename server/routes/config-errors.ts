import { type ErrorBody, NotFoundError, PlugboardError, ValidationError } from '../../core/errors.ts';

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

/** Any other failure (a 423) in the config API's KnownExceptionInfo shape (`message`), with this server's fields beside it. */
class ConfigKnownError extends PlugboardError {
  constructor(cause: PlugboardError) {
    super(cause.status, cause.detail, cause.error_code);
  }

  override toJSON(): ErrorBody & { message: string } {
    return { ...super.toJSON(), message: this.message };
  }
}

/** The answer, or its failure in the config API's shapes: an unknown id as configNotFound, any other but invalid input with its `message`. */
export function configFailures<T>(id: string, answer: Promise<T>): Promise<T> {
  return configNotFound(id, answer).catch((error: unknown) => {
    const known = error instanceof PlugboardError && !(error instanceof NotFoundError) && !(error instanceof ValidationError);
    throw known ? new ConfigKnownError(error) : error;
  });
}

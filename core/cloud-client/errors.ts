/**
 * The cloud client's errors, as PyAirbyte's cloud API raises them. Every one is a CloudError, so a caller can catch the
 * library's failures in one clause; each carries the fields a caller needs to act on it.
 */

/** The base error; thrown as is when the organization look-up fails. */
export class CloudError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The API answered with a failure: its status and its problem JSON (never a request's secrets). */
export class CloudApiError extends CloudError {
  constructor(
    readonly status: number,
    readonly method: string,
    readonly url: string,
    readonly problem: unknown,
  ) {
    super(`${method} ${url} failed with ${status}: ${problemSummary(problem)}`);
  }
}

/**
 * A 400 `secret_required`: the change moves a source or destination to another endpoint (a host, port,
 * database, base URL) and keeps stored secrets, which the server never sends there. `fields` are the
 * configuration's secrets to give again, as paths (`password`, `credentials.token`).
 */
export class SecretRequiredError extends CloudApiError {
  readonly fields: string[];

  constructor(status: number, method: string, url: string, problem: unknown) {
    super(status, method, url, problem);
    this.fields = secretFieldsOf(problem);
    const fields = this.fields.length > 0 ? this.fields.join(', ') : 'its secrets';
    this.message = `${method} ${url} needs ${fields} given again: ${problemSummary(problem)}`;
  }
}

/** The API's failure as the error class its problem names. */
export function apiErrorOf(status: number, method: string, url: string, problem: unknown): CloudApiError {
  const type = problem && typeof problem === 'object' ? (problem as { type?: unknown }).type : undefined;
  const secretRequired = status === 400 && typeof type === 'string' && type.endsWith(':secret_required');
  return secretRequired ? new SecretRequiredError(status, method, url, problem) : new CloudApiError(status, method, url, problem);
}

/** The configuration paths a secret_required problem's issues point at (`body.configuration.` left off). */
function secretFieldsOf(problem: unknown): string[] {
  const issues = (problem as { issues?: unknown } | null)?.issues;
  if (!Array.isArray(issues)) return [];
  return issues
    .map((issue) => (issue as { loc?: unknown }).loc)
    .filter((loc): loc is unknown[] => Array.isArray(loc))
    .map((loc) => loc.slice(loc[0] === 'body' && loc[1] === 'configuration' ? 2 : 0).join('.'));
}

/** A resource (connection, source, destination, definition, job) the API does not have. */
export class MissingResourceError extends CloudError {
  constructor(
    readonly resourceType: string,
    readonly resourceId: string,
    message = `${resourceType} ${resourceId} was not found`,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The resource belongs to another workspace than the one asked through. */
export class WorkspaceMismatchError extends CloudError {
  constructor(
    readonly resourceType: string,
    readonly resourceId: string,
    readonly expectedWorkspaceId: string,
    readonly actualWorkspaceId: string,
  ) {
    super(`${resourceType} ${resourceId} belongs to workspace ${actualWorkspaceId}, not ${expectedWorkspaceId}`);
  }
}

/** A name that must be unique is taken. */
export class DuplicateResourcesError extends CloudError {
  constructor(
    readonly resourceType: string,
    readonly resourceName: string,
  ) {
    super(`a ${resourceType} named ${JSON.stringify(resourceName)} already exists`);
  }
}

/** An invalid argument or combination of arguments. */
export class InputError extends CloudError {
  constructor(
    message: string,
    readonly input?: string,
  ) {
    super(message);
  }
}

/** A sync job ended in failure (or, when waiting, did not end in time). */
export class ConnectionSyncError extends CloudError {
  constructor(
    message: string,
    readonly jobId: number,
    readonly jobStatus: string,
    readonly connectionId: string,
    readonly workspaceId: string,
  ) {
    super(message);
  }
}

/** An operation that would change nothing when told not to ignore that (PyAirbyte's ValueError). */
export class NoopError extends CloudError {}

/** A credential expected in the environment is missing. */
export class SecretNotFoundError extends CloudError {
  constructor(readonly secretName: string) {
    super(`the secret ${secretName} was not found in the environment`);
  }
}

function problemSummary(problem: unknown): string {
  if (problem && typeof problem === 'object') {
    const { detail, title, message } = problem as Record<string, unknown>;
    const text = detail ?? message ?? title;
    if (typeof text === 'string') return text;
    if (text !== undefined) return JSON.stringify(text);
  }
  return typeof problem === 'string' && problem ? problem.slice(0, 500) : 'no detail';
}

/** A sync job did not end within the time waited for it. */
export class ConnectionSyncTimeoutError extends ConnectionSyncError {}

/** The server does not offer this feature (for example docker custom source definitions on Plugboard). */
export class UnsupportedFeatureError extends CloudError {}

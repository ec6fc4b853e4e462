/**
 * One error hierarchy for the in-process and the hosted runtime. Every error carries what the hosted
 * server answers with: `status`, `detail` (a string, or a list of `{loc, msg, type}` issues) and an
 * optional `error_code`. The server serialises `toJSON()` as is, so both modes answer the same.
 */

export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

export type ErrorDetail = string | ValidationIssue[];

export interface ErrorBody {
  detail: ErrorDetail;
  error_code?: string;
}

export class PlugboardError extends Error {
  readonly status: number;
  readonly detail: ErrorDetail;
  readonly error_code: string | undefined;

  constructor(status: number, detail: ErrorDetail, errorCode?: string) {
    super(typeof detail === 'string' ? detail : detail.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; '));
    this.name = new.target.name;
    this.status = status;
    this.detail = detail;
    this.error_code = errorCode;
  }

  toJSON(): ErrorBody {
    return this.error_code === undefined ? { detail: this.detail } : { detail: this.detail, error_code: this.error_code };
  }
}

/** 400: the request is well formed but cannot be served (an upstream rejection that is the caller's fault, a hosted-only action in-process). */
export class BadRequestError extends PlugboardError {
  constructor(detail: string, errorCode?: string) {
    super(400, detail, errorCode);
  }
}

/** 401 with a fixed text: it never says which part of the credentials failed. */
export class AuthenticationError extends PlugboardError {
  constructor() {
    super(401, 'Invalid authentication credentials');
  }
}

/**
 * 401 `credentials_expired`: the provider refused the OAuth grant for good (revoked, or a rotated
 * refresh token used twice). Only the end user connecting again helps; retrying never does.
 */
export class CredentialsExpiredError extends PlugboardError {
  constructor(detail = 'The connected account must be connected again: its OAuth grant was revoked or has expired') {
    super(401, detail, 'credentials_expired');
  }
}

/** 403 with a fixed text: it never says whether the resource exists. */
export class AccessDeniedError extends PlugboardError {
  constructor() {
    super(403, 'Access denied to this resource');
  }
}

export class NotFoundError extends PlugboardError {
  constructor(detail: string, errorCode?: string) {
    super(404, detail, errorCode);
  }
}

export class ConflictError extends PlugboardError {
  constructor(detail: string, errorCode?: string) {
    super(409, detail, errorCode);
  }
}

/** 409 with a Retry-After hint: the context store has not finished the entity's first replication. */
export class NotReadyError extends PlugboardError {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(409, detail, 'context_store_not_ready');
  }
}

/** 503 with a Retry-After hint: the server is busy with work of this kind (searches waiting for a reader); try again shortly. */
export class BusyError extends PlugboardError {
  constructor(
    detail: string,
    errorCode: string,
    readonly retryAfterSeconds: number,
  ) {
    super(503, detail, errorCode);
  }
}

/** 422 with a list of `{loc, msg, type}` issues, one per invalid field. */
export class ValidationError extends PlugboardError {
  constructor(issues: ValidationIssue[]) {
    super(422, issues);
  }

  get issues(): ValidationIssue[] {
    return this.detail as ValidationIssue[];
  }
}

/** 429: the upstream kept rate-limiting after bounded retries. `retryAfterSeconds` is the upstream's hint. */
export class RateLimitedError extends PlugboardError {
  readonly retryAfterSeconds: number | undefined;

  constructor(detail: string, retryAfterSeconds?: number, errorCode = 'rate_limited') {
    super(429, detail, errorCode);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** 502: the upstream failed in a way that is not the caller's fault (its 5xx, auth failure, network). */
export class UpstreamError extends PlugboardError {
  constructor(detail: string, errorCode?: string) {
    super(502, detail, errorCode);
  }
}

/** A connector package that cannot be loaded: bad module, malformed definition, schemas that don't compile. */
export class ConnectorLoadError extends Error {
  readonly problems: string[];

  constructor(specifier: string, problems: string[]) {
    super(`Cannot load connector "${specifier}":\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConnectorLoadError';
    this.problems = problems;
  }
}

/** Builds the error class that matches a status, for upstream failures mapped by data. */
export function errorForStatus(status: number, detail: string, errorCode?: string): PlugboardError {
  switch (status) {
    case 400:
      return new BadRequestError(detail, errorCode);
    case 404:
      return new NotFoundError(detail, errorCode);
    case 409:
      return new ConflictError(detail, errorCode);
    case 429:
      return new RateLimitedError(detail, undefined, errorCode);
    case 502:
      return new UpstreamError(detail, errorCode);
    default:
      return new PlugboardError(status, detail, errorCode);
  }
}

/** A single-issue 422, for problems found outside JSON Schema validation (unknown entity, action...). */
export function invalidField(loc: Array<string | number>, msg: string, type: string): ValidationError {
  return new ValidationError([{ loc, msg, type }]);
}

/**
 * Drive's error envelope: {"error": {"code", "message", "errors": [{"domain", "reason", "message",
 * "location"?, "locationType"?}]}}, plus "status" on errors raised by Google's front end (auth,
 * quota) rather than by Drive itself. Handlers throw DriveError; the server serialises it.
 */

export interface DriveErrorItem {
  domain: string;
  reason: string;
  message: string;
  location?: string;
  locationType?: string;
}

export interface DriveErrorOptions {
  location?: string;
  locationType?: 'parameter' | 'header';
  /** The item's message where Google words it apart from the top one ("Invalid Credentials"). */
  itemMessage?: string;
  /** Canonical status name (UNAUTHENTICATED, RESOURCE_EXHAUSTED...), only where Google sends it. */
  status?: string;
  headers?: Record<string, string>;
}

export class DriveError extends Error {
  readonly headers: Record<string, string>;

  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly options: DriveErrorOptions = {},
  ) {
    super(message);
    this.name = 'DriveError';
    this.headers = options.headers ?? {};
  }

  toJSON(): { error: Record<string, unknown> } {
    const item: DriveErrorItem = { message: this.options.itemMessage ?? this.message, domain: 'global', reason: this.reason };
    if (this.options.location !== undefined) item.location = this.options.location;
    if (this.options.locationType !== undefined) item.locationType = this.options.locationType;
    const error: Record<string, unknown> = { code: this.code, message: this.message, errors: [item] };
    if (this.options.status !== undefined) error.status = this.options.status;
    return { error };
  }
}

export function fileNotFound(fileId: string, location = 'fileId'): DriveError {
  return new DriveError(404, 'notFound', `File not found: ${fileId}.`, { location, locationType: 'parameter' });
}

export function driveNotFound(driveId: string): DriveError {
  return new DriveError(404, 'notFound', `Shared drive not found: ${driveId}`, { location: 'driveId', locationType: 'parameter' });
}

export function resourceNotFound(kind: 'Permission' | 'Comment' | 'Reply' | 'Revision', id: string, location: string): DriveError {
  return new DriveError(404, 'notFound', `${kind} not found: ${id}.`, { location, locationType: 'parameter' });
}

export function requiredParameter(name: string): DriveError {
  return new DriveError(400, 'required', `Required parameter: ${name}`, { location: name, locationType: 'parameter' });
}

/** comments, replies and about.get refuse to answer without a field mask. */
export function fieldsRequired(): DriveError {
  return new DriveError(400, 'required', "The 'fields' parameter is required for this method.", { location: 'fields', locationType: 'parameter' });
}

/** Drive's generic rejection of a malformed parameter value (bad q, bad orderBy, bad page token). */
export function invalidValue(parameter: string): DriveError {
  return new DriveError(400, 'invalid', 'Invalid Value', { location: parameter, locationType: 'parameter' });
}

export function outOfRange(parameter: string, value: string, min: number, max: number): DriveError {
  return new DriveError(400, 'invalid', `Invalid value '${value}'. Values must be within the range: [${min}, ${max}]`, {
    location: parameter,
    locationType: 'parameter',
  });
}

export function invalidFieldSelection(name: string): DriveError {
  return new DriveError(400, 'invalidParameter', `Invalid field selection ${name}`, { location: 'fields', locationType: 'parameter' });
}

const BEARER_REALM = 'Bearer realm="https://accounts.google.com/"';

/**
 * 401 for a missing credential, or for a token Google does not take (unknown, expired, revoked: one
 * answer, "Invalid Credentials" with `error="invalid_token"` in WWW-Authenticate, as RFC 6750 §3.1 says).
 */
export function authError(missing: boolean): DriveError {
  const message = missing
    ? 'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.'
    : 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';
  return new DriveError(401, 'authError', message, {
    location: 'Authorization',
    locationType: 'header',
    status: 'UNAUTHENTICATED',
    ...(missing ? {} : { itemMessage: 'Invalid Credentials' }),
    headers: { 'www-authenticate': missing ? BEARER_REALM : `${BEARER_REALM}, error="invalid_token"` },
  });
}

/** The error an injected fault answers with, shaped like Drive's error for that status. */
export function faultError(status: number, reason?: string, message?: string): DriveError {
  const known: Record<number, [string, string, string?]> = {
    400: ['badRequest', 'Bad Request', 'INVALID_ARGUMENT'],
    401: ['authError', 'Invalid Credentials', 'UNAUTHENTICATED'],
    403: ['userRateLimitExceeded', 'User rate limit exceeded.'],
    404: ['notFound', 'Not Found'],
    408: ['requestTimeout', 'Request Timeout'],
    409: ['conflict', 'Conflict'],
    429: ['rateLimitExceeded', 'Rate limit exceeded.', 'RESOURCE_EXHAUSTED'],
  };
  const [defaultReason, defaultMessage, status_] =
    known[status] ?? (status >= 500 ? ['backendError', 'Backend Error', undefined] : ['badRequest', 'Bad Request', undefined]);
  return new DriveError(status, reason ?? defaultReason, message ?? defaultMessage, status_ ? { status: status_ } : {});
}

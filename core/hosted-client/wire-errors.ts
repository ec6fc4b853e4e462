import {
  AccessDeniedError,
  AuthenticationError,
  CredentialsExpiredError,
  errorForStatus,
  RateLimitedError,
  ValidationError,
  type ErrorBody,
  type PlugboardError,
  type ValidationIssue,
} from '../errors.ts';

/** Rebuilds the typed error a hosted server answered with, so both modes throw the same classes. */
export function errorFromWire(status: number, body: unknown, retryAfter: string | undefined): PlugboardError {
  const { detail, error_code: errorCode } = (body ?? {}) as Partial<ErrorBody>;
  // The connected account's grant is gone: not the caller's token, which a new one would fix.
  if (status === 401 && errorCode === 'credentials_expired') return new CredentialsExpiredError(typeof detail === 'string' ? detail : undefined);
  if (status === 401) return new AuthenticationError();
  // The server's own refusal (its fixed 403 text) has no error_code; an upstream 403 (Drive's insufficientFilePermissions) keeps its code and detail.
  if (status === 403 && errorCode === undefined) return new AccessDeniedError();
  if (status === 422 && Array.isArray(detail)) return new ValidationError(detail as ValidationIssue[]);
  const text = typeof detail === 'string' ? detail : `Plugboard server answered ${status}`;
  if (status === 429) return new RateLimitedError(text, retryAfter === undefined ? undefined : Number(retryAfter), errorCode);
  return errorForStatus(status, text, errorCode);
}

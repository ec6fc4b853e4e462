import { afterEach, describe, expect, it, vi } from 'vitest';
import { BadRequestError, ConflictError, NotFoundError, PlugboardError, RateLimitedError, UpstreamError } from '../errors.ts';
import type { TransportSettings } from '../sdk/index.ts';
import { errorFromAnswer, failureKind, type UpstreamAnswer, upstreamCode } from './upstream-errors.ts';

/** Slack-like: codes in a 200 body at `error`. */
const SLACK: TransportSettings = {
  timeoutMs: 1000,
  maxRetries: 3,
  maxRetryAfterSeconds: 60,
  errors: {
    codePath: 'error',
    statusByCode: { channel_not_found: 404, name_taken: 409, invalid_auth: 502 },
    detailByCode: { name_taken: 'A channel of that name exists; pick another.' },
    rateLimitCodes: ['ratelimited'],
    transientCodes: ['internal_error'],
  },
};

/** Drive-like: codes deep in an error body, with a message beside them. */
const DRIVE: TransportSettings = {
  ...SLACK,
  errors: { codePath: 'error.errors.0.reason', messagePath: 'error.message', statusByCode: { notFound: 404 }, rateLimitCodes: ['userRateLimitExceeded'] },
};

const inBody = (body: unknown): UpstreamAnswer => ({ status: 200, body, inSuccessBody: true });
const withStatus = (status: number, body: unknown = undefined, extra: Partial<UpstreamAnswer> = {}): UpstreamAnswer => ({
  status,
  body,
  inSuccessBody: false,
  ...extra,
});
const driveError = (reason: string, message?: string) => ({ error: { code: 403, message, errors: [{ reason }] } });

describe('upstreamCode', () => {
  it('reads the code where codePath says, and only a non-empty string', () => {
    expect(upstreamCode(inBody({ ok: false, error: 'invalid_auth' }), SLACK.errors)).toBe('invalid_auth');
    expect(upstreamCode(withStatus(403, driveError('notFound')), DRIVE.errors)).toBe('notFound');
    expect(upstreamCode(inBody({ ok: false, error: '' }), SLACK.errors)).toBeUndefined();
    expect(upstreamCode(inBody({ ok: false, error: 7 }), SLACK.errors)).toBeUndefined();
    expect(upstreamCode(withStatus(502, undefined), SLACK.errors)).toBeUndefined();
  });
});

describe('failureKind', () => {
  it('retries a 429 and a declared rate-limit code, whatever status carries it', () => {
    expect(failureKind(withStatus(429), SLACK.errors)).toBe('rate_limit');
    expect(failureKind(inBody({ error: 'ratelimited' }), SLACK.errors)).toBe('rate_limit');
    expect(failureKind(withStatus(403, driveError('userRateLimitExceeded')), DRIVE.errors)).toBe('rate_limit');
  });

  it('calls a declared transient code, a 5xx and a failure without an answer passing', () => {
    expect(failureKind(inBody({ error: 'internal_error' }), SLACK.errors)).toBe('transient');
    expect(failureKind(withStatus(503), SLACK.errors)).toBe('transient');
    expect(failureKind(undefined, SLACK.errors)).toBe('transient');
  });

  it('never retries any other code in a success body, or a 4xx', () => {
    expect(failureKind(inBody({ error: 'channel_not_found' }), SLACK.errors)).toBe('final');
    expect(failureKind(inBody({}), SLACK.errors)).toBe('final');
    expect(failureKind(withStatus(403, driveError('insufficientFilePermissions')), DRIVE.errors)).toBe('final');
    expect(failureKind(withStatus(404), DRIVE.errors)).toBe('final');
  });
});

describe('errorFromAnswer', () => {
  afterEach(() => vi.useRealTimers());

  it('maps a listed code to its status and error class, keeping the code', () => {
    const notFound = errorFromAnswer(inBody({ ok: false, error: 'channel_not_found' }), SLACK);
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound.toJSON()).toEqual({ detail: 'Upstream rejected the request: channel_not_found', error_code: 'channel_not_found' });
    expect(errorFromAnswer(inBody({ error: 'invalid_auth' }), SLACK)).toBeInstanceOf(UpstreamError);
  });

  it('says what detailByCode says for a code, and the upstream message beside the code otherwise', () => {
    const taken = errorFromAnswer(inBody({ error: 'name_taken' }), SLACK);
    expect(taken).toBeInstanceOf(ConflictError);
    expect(taken.detail).toBe('A channel of that name exists; pick another.');
    expect(errorFromAnswer(withStatus(404, driveError('notFound', 'File not found: abc.')), DRIVE).detail).toBe(
      'Upstream rejected the request: notFound (File not found: abc.)',
    );
  });

  it("answers an unlisted code in a success body with 400: the caller's mistake until shown otherwise", () => {
    const error = errorFromAnswer(inBody({ ok: false, error: 'too_many_attachments' }), SLACK);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.error_code).toBe('too_many_attachments');
    expect(errorFromAnswer(inBody({ ok: false }), SLACK).toJSON()).toEqual({
      detail: 'Upstream reported a failure without an error code',
      error_code: 'upstream_error',
    });
  });

  it("keeps an unlisted 4xx's meaning, but a refused credential (401, 403) or an upstream failure (5xx) is a 502", () => {
    expect(errorFromAnswer(withStatus(404, driveError('weird')), DRIVE).status).toBe(404);
    expect(errorFromAnswer(withStatus(401, driveError('authError')), DRIVE).status).toBe(502);
    expect(errorFromAnswer(withStatus(403, driveError('insufficientPermissions')), DRIVE).status).toBe(502);
    const unavailable = errorFromAnswer(withStatus(503, '<html>'), DRIVE);
    expect(unavailable).toBeInstanceOf(UpstreamError);
    // Without a code, the upstream status is named: "502" alone would hide that it sent a 503.
    expect(unavailable.toJSON()).toEqual({ detail: 'Upstream request failed with status 503', error_code: 'upstream_http_503' });
  });

  it('tells the length of the content on an unsatisfiable range, when the upstream said', () => {
    const settings: TransportSettings = { ...DRIVE, errors: { ...DRIVE.errors, statusByCode: { requestedRangeNotSatisfiable: 416 } } };
    const error = errorFromAnswer(withStatus(416, driveError('requestedRangeNotSatisfiable'), { contentRange: 'bytes */1234' }), settings);
    expect(error).toBeInstanceOf(PlugboardError);
    expect(error.status).toBe(416);
    expect(error.detail).toBe('Upstream rejected the request: requestedRangeNotSatisfiable; the content is 1234 bytes long');
    expect(errorFromAnswer(withStatus(416, driveError('requestedRangeNotSatisfiable')), settings).detail).not.toMatch(/bytes long/);
  });

  it("passes on a rate limit as a 429 with the upstream's Retry-After, in seconds or as a date", () => {
    const limited = errorFromAnswer(withStatus(429, undefined, { retryAfter: '7' }), SLACK);
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect(limited).toMatchObject({ status: 429, error_code: 'rate_limited', retryAfterSeconds: 7 });
    expect(errorFromAnswer(inBody({ error: 'ratelimited' }), SLACK)).toMatchObject({ error_code: 'ratelimited' });
    vi.useFakeTimers({ now: Date.parse('2025-01-01T00:00:00Z') });
    expect(errorFromAnswer(withStatus(429, undefined, { retryAfter: 'Wed, 01 Jan 2025 00:00:30 GMT' }), SLACK)).toMatchObject({ retryAfterSeconds: 30 });
  });

  it('hints the next backoff step when the upstream gave no Retry-After, within the bound', () => {
    expect(errorFromAnswer(withStatus(429, undefined, { retries: 0 }), SLACK)).toMatchObject({ retryAfterSeconds: 1 });
    expect(errorFromAnswer(withStatus(429, undefined, { retries: 1 }), SLACK)).toMatchObject({ retryAfterSeconds: 2 });
    // 2^3 s, capped by the 2 s backoff limit.
    expect(errorFromAnswer(withStatus(429), SLACK)).toMatchObject({ retryAfterSeconds: 2 });
    expect(errorFromAnswer(withStatus(429, undefined, { retries: 5 }), { ...SLACK, maxRetryAfterSeconds: 1 })).toMatchObject({ retryAfterSeconds: 1 });
  });
});

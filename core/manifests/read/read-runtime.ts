/**
 * What one read shares across its streams (a substream's parents included): the config, the clock,
 * the template evaluator, the HTTP and retry settings, and the authenticators already built (so a
 * session login or an OAuth token serves the whole read, parent streams included).
 */
import type { InterpolationLimits } from '../interpolation/index.ts';
import type { EgressPolicy } from '../../security/egress/egress-policy.ts';
import type { ErrorHandlerRuntime } from './error-handler.ts';
import type { OutgoingRequest } from './http-client.ts';
import { ManifestReadError } from './read-errors.ts';
import { type Answer, type RetrySettings, type SendHooks, sendWithRetries } from './send-with-retries.ts';
import { Templates } from './templates.ts';

export interface ReadLimits {
  /** One request, from sending to the whole body (ms); default 60,000. */
  requestTimeoutMs?: number;
  /** The largest response body read (bytes); default 64 MiB. */
  maxResponseBytes?: number;
  /** The longest wait before a retry (seconds); a longer one the upstream asks for fails the read. Default 60. */
  maxRetryWaitSeconds?: number;
  /** The longest time spent retrying one request (seconds); default 600, the CDK's. */
  maxRetrySeconds?: number;
  /** Requests one read may send (pages, parents and logins included); default unbounded. */
  maxRequests?: number;
  /** Bounds of each template evaluation. */
  interpolation?: InterpolationLimits;
}

/** A config change the read asks the caller to keep (a single-use refresh token renewed): the CDK's CONTROL message. */
export interface ConfigUpdate {
  config: Record<string, unknown>;
}

export interface ReadRuntime {
  /** The read's own copy of the config (a renewed single-use refresh token is written into it). */
  config: Record<string, unknown>;
  templates: Templates;
  clock: () => number;
  retry: RetrySettings;
  limits: ReadLimits;
  signal?: AbortSignal;
  /** Authenticators by their component's JSON: one login or token for every requester that uses the same. */
  authenticators: Map<string, unknown>;
  /** Config updates not yet handed to the caller. */
  configUpdates: ConfigUpdate[];
  /** Requests sent so far (against `limits.maxRequests`). */
  requests: number;
}

export interface RuntimeOptions {
  config: Record<string, unknown>;
  egress?: EgressPolicy;
  signal?: AbortSignal;
  limits?: ReadLimits;
  clock?: () => number;
  onRetry?: RetrySettings['onRetry'];
}

export function createRuntime(options: RuntimeOptions): ReadRuntime {
  const limits = options.limits ?? {};
  const clock = options.clock ?? Date.now;
  return {
    config: structuredClone(options.config),
    templates: new Templates({ clock, ...(limits.interpolation ? { limits: limits.interpolation } : {}) }),
    clock,
    retry: {
      http: {
        ...(options.egress ? { egress: options.egress } : {}),
        timeoutMs: limits.requestTimeoutMs ?? 60_000,
        maxResponseBytes: limits.maxResponseBytes ?? 64 * 1024 * 1024,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      maxWaitSeconds: limits.maxRetryWaitSeconds ?? 60,
      maxRetrySeconds: limits.maxRetrySeconds ?? 600,
      ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    },
    limits,
    ...(options.signal ? { signal: options.signal } : {}),
    authenticators: new Map(),
    configUpdates: [],
    requests: 0,
  };
}

/** Sends through the read's retry settings, counting every attempt against `limits.maxRequests`. */
export function sendCounted(
  runtime: ReadRuntime,
  prepare: () => Promise<OutgoingRequest>,
  handler: ErrorHandlerRuntime,
  hooks: SendHooks = {},
): Promise<Answer> {
  return sendWithRetries(
    async () => {
      const request = await prepare();
      runtime.requests++;
      const max = runtime.limits.maxRequests;
      if (max !== undefined && runtime.requests > max) throw new ManifestReadError(`The read would send more than ${max} requests`, 'manifest_read_limit');
      return request;
    },
    handler,
    runtime.retry,
    hooks,
  );
}

/**
 * The CDK's backoff strategies: how long to wait before retrying, in seconds, or undefined when the
 * strategy has no answer (the next one is asked, then the default exponential backoff applies).
 * Strategies that read headers only ever see an answer, never a network failure.
 */
import type { BackoffStrategy } from '../model.ts';
import { headerValue, type UpstreamResponse } from './http-client.ts';
import { RateLimitedError } from '../../errors.ts';
import { pythonMatchAtStart, type Templates } from './templates.ts';
import { ManifestReadError } from './read-errors.ts';
import { pyText } from './request-parts.ts';

export type BackoffStrategyRuntime = (response: UpstreamResponse | undefined, attempt: number) => number | undefined;

export function backoffStrategy(strategy: BackoffStrategy, templates: Templates, config: unknown, clock: () => number): BackoffStrategyRuntime {
  const context = { config, parameters: strategy.$parameters ?? {} };
  const jitter = () => {
    const range = 'jitter_range_in_seconds' in strategy ? Number(strategy.jitter_range_in_seconds ?? 0) : 0;
    return range > 0 ? Math.random() * range : 0;
  };
  switch (strategy.type) {
    case 'ExponentialBackoffStrategy': {
      const factor = strategy.factor === undefined || strategy.factor === null ? 5 : templates.number(strategy.factor, context, 'factor');
      return (_response, attempt) => factor * 2 ** attempt + jitter();
    }
    case 'ConstantBackoffStrategy': {
      const seconds = templates.number(strategy.backoff_time_in_seconds, context, 'backoff_time_in_seconds');
      return () => seconds + jitter();
    }
    case 'WaitTimeFromHeader': {
      const header = pyText(templates.string(strategy.header, context));
      const regex = nonEmpty(strategy.regex);
      const max = strategy.max_waiting_time_in_seconds;
      return (response) => {
        if (!response) return undefined;
        const wait = numericHeader(response, header, regex);
        if (wait !== undefined && max && wait >= max) {
          throw new RateLimitedError(`The upstream asks to wait ${wait} seconds, more than the manifest's ${max}`, Math.ceil(wait));
        }
        return wait;
      };
    }
    case 'WaitUntilTimeFromHeader': {
      const header = pyText(templates.string(strategy.header, context));
      const regex = nonEmpty(strategy.regex);
      const minWait = strategy.min_wait === undefined || strategy.min_wait === null ? undefined : templates.number(strategy.min_wait, context, 'min_wait');
      return (response) => {
        if (!response) return undefined;
        const until = numericHeader(response, header, regex);
        if (until === undefined || until === 0) return minWait || undefined;
        const wait = until - clock() / 1000;
        if (minWait) return Math.max(wait, minWait);
        return wait < 0 ? undefined : wait;
      };
    }
    default:
      return () => undefined;
  }
}

function nonEmpty(pattern: string | undefined): string | undefined {
  return typeof pattern === 'string' && pattern !== '' ? pattern : undefined;
}

/** The CDK's get_numeric_value_from_header: the header (or the regex's match at its start) as a float. */
function numericHeader(response: UpstreamResponse, header: string, regex: string | undefined): number | undefined {
  let value = headerValue(response.headers, header);
  if (!value) return undefined;
  if (regex) {
    // re.match: anchored at the start, the whole match read; no match leaves the header as it is.
    let match: string | undefined;
    try {
      match = pythonMatchAtStart(regex, value);
    } catch {
      throw new ManifestReadError(`The backoff strategy's regex ${JSON.stringify(regex)} cannot run`);
    }
    if (match !== undefined) value = match;
  }
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  const number = Number(trimmed);
  return Number.isNaN(number) ? undefined : number;
}

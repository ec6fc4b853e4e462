import { RenderError } from './errors.ts';

/**
 * The variables a manifest template may read. Which ones a component passes is the component's
 * business (see the CDK's `interpolation_context`); every key given here is declared, an
 * `undefined` value reads as None. `config` and `parameters` (the component's `$parameters`)
 * default to empty dicts, as the CDK always passes them.
 */
export interface InterpolationContext {
  config?: unknown;
  parameters?: unknown;
  /** A StreamSlice or a plain object; `stream_partition` and `stream_interval` are its aliases. */
  stream_slice?: unknown;
  /** `{next_page_token: token}` or null, as the CDK passes it. */
  next_page_token?: unknown;
  response?: unknown;
  headers?: unknown;
  record?: unknown;
  last_record?: unknown;
  last_page_size?: unknown;
  /** Only for manifests older than CDK 6.34, with the `allowStreamState` option. */
  stream_state?: unknown;
  creation_response?: unknown;
  polling_response?: unknown;
  download_target?: unknown;
  [name: string]: unknown;
}

const ALIASES = ['stream_interval', 'stream_partition'] as const;

/** The context as templates see it: a null-prototype record with defaults and aliases filled in. */
export function buildScope(context: InterpolationContext): Record<string, unknown> {
  for (const alias of ALIASES) {
    if (Object.hasOwn(context, alias)) throw new RenderError(`pass stream_slice, not ${alias}: ${ALIASES.join(' and ')} are its aliases`);
  }
  const scope = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(context)) scope[name] = value ?? null;
  if (!Object.hasOwn(scope, 'config')) scope.config = {};
  if (!Object.hasOwn(scope, 'parameters')) scope.parameters = {};
  if (Object.hasOwn(scope, 'stream_slice')) {
    for (const alias of ALIASES) scope[alias] = scope.stream_slice;
  }
  return scope;
}

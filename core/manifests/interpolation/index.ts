/**
 * Airbyte's declarative-manifest interpolation (the CDK's Jinja environment, its macros and filters,
 * and the literal_eval re-typing of results), sandboxed and bounded in steps, time and size.
 */
export type { InterpolationLimits } from './budget.ts';
export { DEFAULT_LIMITS } from './budget.ts';
export type { InterpolationContext } from './context.ts';
export { formatDatetime, parseDatetime } from './datetime/datetime-parser.ts';
export { parseIsoDuration } from './datetime/iso-duration.ts';
export { IsoDuration, PyDate, PyDateTime, Timedelta } from './datetime/types.ts';
export { InterpolationError } from './errors.ts';
export type { InterpolateOptions, MappingOptions, RequestInputKind } from './interpolate.ts';
export { interpolate, interpolateBoolean, interpolateMapping, interpolateNestedMapping, interpolateRequestInput } from './interpolate.ts';
export type { PyType } from './python/literal-result.ts';
export type { SessionOptions } from './session.ts';
export { StreamSlice } from './values.ts';

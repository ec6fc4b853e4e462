/**
 * The one door to the interpolation module (`../interpolation/`): every template the reader evaluates
 * goes through here, with the read's clock and limits, so the rest of the reader never depends on
 * how interpolation is built.
 */
import {
  type InterpolateOptions,
  type InterpolationContext,
  type InterpolationLimits,
  interpolate,
  interpolateBoolean,
  interpolateMapping,
  interpolateNestedMapping,
  interpolateRequestInput,
  type PyType,
  type RequestInputKind,
  StreamSlice,
} from '../interpolation/index.ts';
import { Budget } from '../interpolation/budget.ts';
import { regexSearch } from '../interpolation/regex/index.ts';

export { StreamSlice };
export type { InterpolationContext, PyType, RequestInputKind };

/** What every evaluation of one read shares: its clock (`now_utc()`) and the interpolation limits. */
export interface TemplateSettings {
  clock: () => number;
  limits?: InterpolationLimits;
}

export class Templates {
  constructor(private readonly settings: TemplateSettings) {}

  /** A fresh object per evaluation, completed in place: spreading options costs more than evaluating most templates. */
  private options(): InterpolateOptions {
    const options: InterpolateOptions = this.settings.limits ? Object.assign({}, this.settings.limits) : {};
    options.now = new Date(this.settings.clock());
    return options;
  }

  /**
   * The CDK's InterpolatedString: a non-string is stringified first (pydantic's coercion of a number
   * given for a string field), an empty result is "" (the default is the template itself).
   */
  string(template: unknown, context: InterpolationContext, validTypes?: readonly PyType[]): unknown {
    const text = typeof template === 'string' ? template : String(template);
    const options = this.options();
    if (validTypes) options.validTypes = validTypes;
    return interpolate(text, context, options);
  }

  /** A template whose empty result is None (a bare JinjaInterpolation, as request options use). */
  orNone(template: string, context: InterpolationContext): unknown {
    const options = this.options();
    options.default = null;
    return interpolate(template, context, options);
  }

  /** The CDK's InterpolatedBoolean; an absent or empty condition is true where the caller says so. */
  boolean(condition: string | boolean, context: InterpolationContext): boolean {
    return interpolateBoolean(condition, context, this.options());
  }

  /** A field that is either a literal value or a template (`page_size: 100` or `"{{ config.size }}"`). */
  value(field: unknown, context: InterpolationContext): unknown {
    return typeof field === 'string' ? this.string(field, context) : field;
  }

  /** A number field, literal or templated (a page size, a retry count, a backoff factor). */
  number(field: unknown, context: InterpolationContext, what: string): number {
    const value = this.value(field, context);
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isFinite(number)) throw new TypeError(`${what} must be a number`);
    return number;
  }

  mapping(mapping: Readonly<Record<string, unknown>>, context: InterpolationContext): Record<string, unknown> {
    return interpolateMapping(mapping, context, this.options());
  }

  nested(value: unknown, context: InterpolationContext): unknown {
    return interpolateNestedMapping(value, context, this.options());
  }

  requestInput(kind: RequestInputKind, input: string | Readonly<Record<string, unknown>>, context: InterpolationContext): unknown {
    return interpolateRequestInput(kind, input, context, this.options());
  }
}

/**
 * Python's `re.match(pattern, subject).group()` on the interpolation's linear-time matcher (a
 * manifest's regex cannot backtrack for ever on an upstream's header): the leftmost match, when it
 * starts at the beginning. Undefined when there is none; throws on a pattern Python would refuse.
 */
export function pythonMatchAtStart(pattern: string, subject: string, limits?: InterpolationLimits): string | undefined {
  const match = regexSearch(pattern, subject, new Budget(limits));
  return match && match.start === 0 ? match.groups[0] : undefined;
}

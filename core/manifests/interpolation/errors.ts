import { PlugboardError } from '../../errors.ts';

/**
 * A manifest template that cannot be parsed or evaluated. The detail names the template (truncated)
 * and the problem, never a value of the context: templates read config secrets, and an error body
 * may reach a log or a caller that must not see them.
 */
export class InterpolationError extends PlugboardError {
  readonly template: string;

  constructor(template: string, problem: string) {
    super(422, `Cannot interpolate ${quoteTemplate(template)}: ${problem}`, 'manifest_interpolation_failed');
    this.template = template;
  }
}

const SHOWN_TEMPLATE_CHARS = 120;

/** The template as the error shows it: a template is manifest text, not data, but it can be long. */
export function quoteTemplate(template: string): string {
  const shown = template.length > SHOWN_TEMPLATE_CHARS ? `${template.slice(0, SHOWN_TEMPLATE_CHARS)}…` : template;
  return JSON.stringify(shown);
}

/*
 * Failures inside the engine. They mirror the Python exceptions the CDK reacts to differently:
 * a TypeError makes the CDK return the raw template, an UndefinedError makes it use the default,
 * anything else fails. None of their messages may include a context value.
 */

/** Python's TypeError: an operation on values of the wrong types (`'a' + 1`, calling a string). */
export class PyTypeError extends Error {
  override name = 'TypeError';
}

/** Jinja's UndefinedError: an operation on an undefined value other than printing or testing it. */
export class UndefinedError extends Error {
  override name = 'UndefinedError';
}

/** Any other failure while rendering (Python's ValueError, ZeroDivisionError...); the message is safe to show. */
export class RenderError extends Error {
  override name = 'RenderError';
}

/** A template that does not parse (Jinja's TemplateSyntaxError). */
export class TemplateSyntaxError extends Error {
  override name = 'TemplateSyntaxError';
}

/** The step, time or size budget of one interpolation ran out. */
export class LimitExceededError extends Error {
  override name = 'LimitExceededError';
}

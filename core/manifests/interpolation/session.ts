import { Budget, type InterpolationLimits } from './budget.ts';
import { buildScope, type InterpolationContext } from './context.ts';
import { PyDateTime } from './datetime/types.ts';
import { InterpolationError, LimitExceededError, PyTypeError, RenderError, TemplateSyntaxError, UndefinedError } from './errors.ts';
import type { Node } from './jinja/ast.ts';
import { type GlobalLookup, render } from './jinja/evaluator.ts';
import { FILTERS } from './jinja/filters.ts';
import { createGlobals } from './jinja/macros.ts';
import { parseTemplate } from './jinja/parser.ts';
import type { Runtime } from './jinja/runtime.ts';
import { TESTS } from './jinja/tests.ts';
import { findUndeclaredNames } from './jinja/undeclared.ts';
import { literalEval } from './python/literal-eval.ts';
import { literalIsOneOf, literalToJs, type PyType } from './python/literal-result.ts';
import type { Callable } from './values.ts';

export interface SessionOptions extends InterpolationLimits {
  /** The clock of `now_utc()`, `today_utc()`, `day_delta()`; the real time when not given. */
  now?: Date;
  /**
   * Let `stream_state` be an ordinary variable, as it was before CDK 6.34 (for manifests that
   * declare an older version). Otherwise any template that mentions it fails, as in the CDK since.
   */
  allowStreamState?: boolean;
}

/** What the CDK's `_literal_eval` returns for a rendered text: the Python value if it is a literal of an accepted type, else the text. */
export function retype(text: string, validTypes: readonly PyType[] | undefined): unknown {
  const literal = literalEval(text);
  if (literal === null || literal.type === 'complex') return text;
  if (validTypes && !literalIsOneOf(literal, validTypes)) return text;
  return literalToJs(literal);
}

const FILTER_NAMES = new Set(Object.keys(FILTERS));
const TEST_NAMES = new Set(Object.keys(TESTS));
const MAX_CACHED_TEMPLATES = 2000;
const parsed = new Map<string, { nodes: Node[]; undeclared: Set<string> }>();

function parse(template: string): { nodes: Node[]; undeclared: Set<string> } {
  const cached = parsed.get(template);
  if (cached) return cached;
  const nodes = parseTemplate(template, FILTER_NAMES, TEST_NAMES);
  const entry = { nodes, undeclared: findUndeclaredNames(nodes) };
  if (parsed.size >= MAX_CACHED_TEMPLATES) parsed.delete(parsed.keys().next().value!);
  parsed.set(template, entry);
  return entry;
}

/**
 * One interpolation: a context, a clock and a budget shared by every template it evaluates (the
 * keys and values of a mapping count as one interpolation).
 */
export class Session {
  /** Built on first use, so that a bad context is reported against the template being evaluated. */
  private builtScope: Record<string, unknown> | null = null;
  private readonly runtime: Runtime;
  private readonly globals: LazyGlobals;

  constructor(
    private readonly context: InterpolationContext,
    private readonly options: SessionOptions = {},
  ) {
    const millis = (options.now ?? new Date()).getTime();
    this.runtime = { budget: new Budget(options), now: PyDateTime.fromMicros(BigInt(Math.trunc(millis)) * 1000n, 0) };
    this.globals = new LazyGlobals(this.runtime);
  }

  /**
   * The CDK's `JinjaInterpolation.eval`: render, re-type with literal_eval; an empty result or an
   * undefined value used in an operation falls back to `fallback` (a template, or null for None).
   */
  evaluate(template: string, fallback: string | null, validTypes?: readonly PyType[]): unknown {
    try {
      return this.evaluateUnguarded(template, fallback, validTypes);
    } catch (error) {
      throw interpolationError(template, error);
    }
  }

  private evaluateUnguarded(template: string, fallback: string | null, validTypes: readonly PyType[] | undefined): unknown {
    if (typeof template !== 'string') throw new RenderError(`expected a string template, got ${typeof template}`);
    if (!this.options.allowStreamState && template.includes('stream_state')) {
      throw new RenderError('stream_state is not available to templates since CDK 6.34; use the stream_interval or stream_partition variables');
    }
    let rendered = '';
    try {
      rendered = this.renderOrRaw(template);
    } catch (error) {
      if (!(error instanceof UndefinedError)) throw error;
    }
    if (rendered) return retype(rendered, validTypes);
    if (fallback === null) return null;
    return retype(this.renderOrRaw(fallback), validTypes);
  }

  private get scope(): Record<string, unknown> {
    this.builtScope ??= buildScope(this.context);
    return this.builtScope;
  }

  /** Renders a template; a Python TypeError makes the CDK return the template's own text, and so does this. */
  private renderOrRaw(template: string): string {
    const { nodes, undeclared } = parse(template);
    const scope = this.scope;
    const missing = [...undeclared].filter((name) => !Object.hasOwn(scope, name) && !this.globals.has(name));
    if (missing.length) throw new RenderError(`undeclared variables: ${missing.sort().join(', ')}`);
    try {
      return render(nodes, scope, this.globals, this.runtime);
    } catch (error) {
      if (error instanceof PyTypeError) return template;
      throw error;
    }
  }
}

/** The macros, built when a template first names one: most templates read only the context (`config`, `response`). */
class LazyGlobals implements GlobalLookup {
  private built: Map<string, Callable> | null = null;

  constructor(private readonly runtime: Runtime) {}

  get(name: string): Callable | undefined {
    return this.macros().get(name);
  }

  has(name: string): boolean {
    return this.macros().has(name);
  }

  private macros(): Map<string, Callable> {
    this.built ??= createGlobals(this.runtime);
    return this.built;
  }
}

/** Any failure as an InterpolationError naming the template; messages never carry context values. */
function interpolationError(template: string, error: unknown): InterpolationError {
  if (error instanceof InterpolationError) return error;
  if (error instanceof TemplateSyntaxError) return new InterpolationError(template, `syntax error: ${error.message}`);
  if (error instanceof UndefinedError) return new InterpolationError(template, `undefined value: ${error.message}`);
  if (error instanceof LimitExceededError) return new InterpolationError(template, `limit exceeded: ${error.message}`);
  if (error instanceof RenderError || error instanceof PyTypeError) return new InterpolationError(template, error.message);
  if (error instanceof RangeError) return new InterpolationError(template, 'the template or its data nests too deeply');
  return new InterpolationError(template, `evaluation failed (${error instanceof Error ? error.name : typeof error})`);
}

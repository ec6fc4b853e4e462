import type { InterpolationContext } from './context.ts';
import { jsonKey } from './python/json-dumps.ts';
import type { PyType } from './python/literal-result.ts';
import { pyStr } from './python/to-string.ts';
import { Session, type SessionOptions } from './session.ts';
import { isPlainObject } from './values.ts';

export interface InterpolateOptions extends SessionOptions {
  /**
   * What an empty result (or an undefined value used in an operation) falls back to. Omitted: the
   * template itself, as the CDK's InterpolatedString does (so an empty result is ""). A string: that
   * template, rendered. null: None, as a bare JinjaInterpolation (and request options) have it.
   */
  default?: string | null;
  /** Accept the re-typed value only if it is one of these Python types; else keep the rendered text. */
  validTypes?: readonly PyType[];
}

/**
 * Evaluates a manifest string as the CDK does: render the template, then read the text back as a
 * Python literal (`"42"` → 42, `"[1, 'a']"` → [1, "a"], `"True"` → true, `"0123"` stays text).
 */
export function interpolate(template: string, context: InterpolationContext = {}, options: InterpolateOptions = {}): unknown {
  return new Session(context, options).evaluate(template, options.default === undefined ? template : options.default, options.validTypes);
}

/** The CDK's InterpolatedBoolean.FALSE_VALUES; Python's `in` compares with ==, so 0 and 0.0 are false too. */
const FALSE_STRINGS = new Set(['False', 'false', '{}', '[]', '()', '', '0', '0.0']);

function isFalseValue(value: unknown): boolean {
  if (value === false || value === 0 || value === 0n) return true;
  if (typeof value === 'string') return FALSE_STRINGS.has(value);
  if (Array.isArray(value)) return value.length === 0;
  return isPlainObject(value) && Object.keys(value).length === 0;
}

/**
 * The CDK's InterpolatedBoolean: a boolean is itself; a template is false only when its value is one
 * of the false values (an empty result falls back to "False"). Everything else is true, None
 * included: `{{ None }}` and `{{ config.get('missing') }}` are true, `{{ config['missing'] }}` is false.
 */
export function interpolateBoolean(condition: string | boolean, context: InterpolationContext = {}, options: SessionOptions = {}): boolean {
  if (typeof condition === 'boolean') return condition;
  return !isFalseValue(new Session(context, options).evaluate(condition, 'False'));
}

export interface MappingOptions extends SessionOptions {
  /** Types a key may take; default `['str']` (so a key `"1"` stays "1"), as the CDK's InterpolatedMapping. */
  keyTypes?: readonly PyType[];
  /** Types a value may take; default any. */
  valueTypes?: readonly PyType[];
}

/**
 * The CDK's InterpolatedMapping: keys and string values are templates (an empty result is None);
 * other values pass through. Deliberately unlike the CDK, a key that renders to nothing (None)
 * drops its entry instead of becoming a `None` key.
 */
export function interpolateMapping(
  mapping: Readonly<Record<string, unknown>>,
  context: InterpolationContext = {},
  options: MappingOptions = {},
): Record<string, unknown> {
  const session = new Session(context, options);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(mapping)) {
    const key = session.evaluate(name, null, options.keyTypes ?? ['str']);
    if (key === null) continue;
    const evaluated = typeof value === 'string' ? session.evaluate(value, null, options.valueTypes) : value;
    setKey(out, keyText(key), evaluated);
  }
  return out;
}

/**
 * The CDK's InterpolatedNestedMapping (request_body_json): every string in nested objects and arrays
 * is a template with no type restriction (`"{{ 1 }}"` → 1); object entries whose value becomes None
 * are dropped, array items are kept.
 */
export function interpolateNestedMapping(value: unknown, context: InterpolationContext = {}, options: SessionOptions = {}): unknown {
  const session = new Session(context, options);
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return session.evaluate(node, null);
    if (Array.isArray(node)) return node.map(walk);
    if (isPlainObject(node)) {
      const out: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(node)) {
        const key = session.evaluate(name, null);
        const evaluated = walk(child);
        if (key === null || evaluated === null) continue;
        setKey(out, keyText(key), evaluated);
      }
      return out;
    }
    return node;
  };
  return walk(value);
}

export type RequestInputKind = 'request_parameters' | 'request_headers' | 'request_body_data' | 'request_body_json';

/**
 * An HttpRequester's request inputs as the CDK evaluates them: parameters and form data keep
 * numbers, booleans and dicts as their rendered text (only str and list are re-typed); headers are
 * re-typed then printed with Python's str(); the JSON body is a nested mapping. None values are
 * dropped. A string input (not a mapping) is one template.
 */
export function interpolateRequestInput(
  kind: RequestInputKind,
  input: string | Readonly<Record<string, unknown>>,
  context: InterpolationContext = {},
  options: SessionOptions = {},
): unknown {
  if (kind === 'request_body_json')
    return typeof input === 'string' ? dropNone(interpolate(input, context, options)) : interpolateNestedMapping(input, context, options);
  if (typeof input === 'string') return dropNone(interpolate(input, context, options));
  const text = kind === 'request_headers' ? undefined : (['str', 'list'] as const);
  const mapping = interpolateMapping(input, context, { ...options, keyTypes: ['str'], ...(text ? { valueTypes: text } : {}) });
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(mapping)) {
    if (value === null) continue;
    setKey(out, name, kind === 'request_headers' ? pyStr(value) : value);
  }
  return out;
}

function dropNone(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== null));
}

function keyText(key: unknown): string {
  if (typeof key === 'string') return key;
  try {
    return jsonKey(key);
  } catch {
    return pyStr(key);
  }
}

/** defineProperty, so that a key named `__proto__` stays an ordinary key. */
function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

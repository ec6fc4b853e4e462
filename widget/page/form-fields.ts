import type { JsonSchema } from './api.ts';
import { dateField } from './date-fields.ts';
import { h, uniqueId } from './dom.ts';
import { schemaProblem, typeOf } from './value-checks.ts';

/**
 * One input of a form, bound to where the server's 422 issues point (`loc`, from "body"): a label
 * (the schema's title), a hint (its description) and an error line, all tied to the input for
 * assistive technology.
 */
export interface Field {
  loc: string[];
  title: string;
  root: HTMLElement;
  focusTarget: HTMLElement;
  /** The value to send, or undefined to leave it out. */
  read(): unknown;
  /** What the form itself finds wrong with the value, before the server is asked. */
  check(): string | undefined;
  showError(message: string | undefined): void;
}

interface Labelled {
  title: string;
  description?: string | undefined;
  required?: boolean;
}

/** Wraps an input with its label, hint and error line; answers the Field around it. */
export function labelledField(
  loc: string[],
  input: HTMLInputElement,
  { title, description, required }: Labelled,
  read: () => unknown,
  check: () => string | undefined,
): Field {
  input.id ||= uniqueId('field');
  const hint = description ? h('p', { class: 'hint', id: uniqueId('hint') }, description) : null;
  const error = h('p', { class: 'error', id: uniqueId('error'), hidden: true });
  const checkbox = input.type === 'checkbox';
  const label = h('label', { for: input.id }, title, required ? h('span', { class: 'required', 'aria-hidden': 'true' }, ' *') : null);
  if (required) input.setAttribute('aria-required', 'true');
  const describedBy = () => [hint?.id, error.hidden ? undefined : error.id].filter(Boolean).join(' ');
  input.setAttribute('aria-describedby', describedBy());
  const root = h('div', { class: checkbox ? 'field checkbox' : 'field' }, ...(checkbox ? [input, label] : [label, input]), hint, error);
  return {
    loc,
    title,
    root,
    focusTarget: input,
    read,
    check,
    showError(message) {
      error.textContent = message ?? '';
      error.hidden = message === undefined;
      if (message === undefined) input.removeAttribute('aria-invalid');
      else input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', describedBy());
    },
  };
}

/** A text input, checked by `schema`'s keywords (and for a value, when required). */
export function textField(loc: string[], labelled: Labelled, value: string | undefined, schema: JsonSchema = {}): Field {
  const input = h('input', { type: 'text', autocomplete: 'off' });
  input.value = value ?? '';
  const read = () => (input.value === '' ? undefined : input.value);
  return labelledField(loc, input, labelled, read, () => schemaProblem(schema, labelled.required ?? false, read()));
}

/**
 * The input for one property of a settings schema, checked by the schema's keywords: a checkbox for a
 * boolean, a number input within the schema's bounds, the browser's date (or date and time) control
 * for a `date` (`date-time`) string, else text.
 */
export function schemaField(loc: string[], name: string, schema: JsonSchema, required: boolean, value: unknown): Field {
  const labelled = { title: schema.title ?? name, description: schema.description, required };
  const type = typeOf(schema);
  const checked = (input: HTMLInputElement, read: () => unknown, shown = labelled) =>
    labelledField(loc, input, shown, read, () => schemaProblem(schema, required, read()));
  if (type === 'boolean') {
    const input = h('input', { type: 'checkbox' });
    input.checked = value === true;
    return checked(input, () => input.checked);
  }
  if (type === 'integer' || type === 'number') {
    const input = h('input', {
      type: 'number',
      inputmode: type === 'integer' ? 'numeric' : 'decimal',
      step: type === 'integer' ? 1 : 'any',
      min: schema.minimum,
      max: schema.maximum,
    });
    input.value = typeof value === 'number' ? String(value) : '';
    // An entry the browser can't read as a number is sent as typed, so the server says what is wrong with it.
    return checked(input, () => (input.value === '' ? (input.validity.badInput ? 'not a number' : undefined) : Number(input.value)));
  }
  if (type === 'string' && (schema.format === 'date' || schema.format === 'date-time')) {
    const { input, read, title, hint } = dateField(schema.format, value, labelled.description);
    return checked(input, read, { ...labelled, title: `${labelled.title}${title}`, description: hint });
  }
  return textField(loc, labelled, typeof value === 'string' ? value : undefined, schema);
}

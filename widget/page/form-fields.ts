import type { JsonSchema } from './api.ts';
import { h, uniqueId } from './dom.ts';

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
  showError(message: string | undefined): void;
}

interface Labelled {
  title: string;
  description?: string | undefined;
  required?: boolean;
}

/** Wraps an input with its label, hint and error line; answers the Field around it. */
export function labelledField(loc: string[], input: HTMLInputElement, { title, description, required }: Labelled, read: () => unknown): Field {
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
    showError(message) {
      error.textContent = message ?? '';
      error.hidden = message === undefined;
      if (message === undefined) input.removeAttribute('aria-invalid');
      else input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', describedBy());
    },
  };
}

/** A text input. */
export function textField(loc: string[], labelled: Labelled, value: string | undefined): Field {
  const input = h('input', { type: 'text', autocomplete: 'off' });
  input.value = value ?? '';
  return labelledField(loc, input, labelled, () => (input.value === '' ? undefined : input.value));
}

/**
 * The input for one property of a settings schema: a checkbox for a boolean, a number input within
 * the schema's bounds, a date and time (UTC, to the second) for a `date-time` string, else text.
 */
export function schemaField(loc: string[], name: string, schema: JsonSchema, required: boolean, value: unknown): Field {
  const labelled = { title: schema.title ?? name, description: schema.description, required };
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'boolean') {
    const input = h('input', { type: 'checkbox' });
    input.checked = value === true;
    return labelledField(loc, input, labelled, () => input.checked);
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
    return labelledField(loc, input, labelled, () => (input.value === '' ? (input.validity.badInput ? 'not a number' : undefined) : Number(input.value)));
  }
  if (type === 'string' && schema.format === 'date-time') {
    const input = h('input', { type: 'datetime-local', step: 1 });
    input.value = typeof value === 'string' ? utcInputValue(value) : '';
    return labelledField(loc, input, { ...labelled, title: `${labelled.title} (UTC)` }, () => (input.value === '' ? undefined : toUtcDateTime(input.value)));
  }
  return textField(loc, labelled, typeof value === 'string' ? value : undefined);
}

/** A stored date-time as the input shows it: its UTC wall-clock time, whatever offset it was written with. */
function utcInputValue(value: string): string {
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? '' : time.toISOString().slice(0, 19);
}

/** `YYYY-MM-DDTHH:mm[:ss]` from a datetime-local input, read as UTC: `YYYY-MM-DDTHH:mm:ssZ`. */
function toUtcDateTime(local: string): string {
  return `${local.length === 16 ? `${local}:00` : local.slice(0, 19)}Z`;
}

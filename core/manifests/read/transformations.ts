/**
 * A stream's record transformations, in order, each changing the record in place as the CDK's do:
 * AddFields (each value templated with `record`, `stream_slice`, `config`; later fields see earlier
 * ones; an optional `condition` with `value` and `path`), RemoveFields (glob paths, an optional
 * `condition` on each matched `property`), KeysToLower and KeysToSnakeCase (top-level keys),
 * KeysReplace (keys at every dict level).
 */
import { isObject, setField } from '../json-values.ts';
import type { AddFields, KeysReplace, RemoveFields, Transformation } from '../model.ts';
import { deleteMatches, setPath } from './dpath.ts';
import { ManifestReadError } from './read-errors.ts';
import { pyText } from './request-parts.ts';
import type { StreamSlice, Templates } from './templates.ts';

export type RecordTransform = (record: Record<string, unknown>, slice: StreamSlice) => void;

export function transformationsOf(transformations: readonly Transformation[] | undefined, templates: Templates, config: unknown): RecordTransform[] {
  return (transformations ?? []).map((transformation) => {
    switch (transformation.type) {
      case 'AddFields':
        return addFields(transformation, templates, config);
      case 'RemoveFields':
        return removeFields(transformation, templates, config);
      case 'KeysToLower':
        return (record) => renameKeys(record, (key) => key.toLowerCase());
      case 'KeysToSnakeCase':
        return (record) => renameKeys(record, snakeCase);
      case 'KeysReplace':
        return keysReplace(transformation, templates, config);
      default:
        throw new ManifestReadError(`Transformation ${(transformation as { type: string }).type} cannot run`, 'manifest_unsupported_component');
    }
  });
}

const VALUE_TYPES = { string: 'str', number: 'float', integer: 'int', boolean: 'bool' } as const;

function addFields(component: AddFields, templates: Templates, config: unknown): RecordTransform {
  const fields = component.fields.map((field) => ({
    path: field.path.map(String),
    value: field.value,
    parameters: field.$parameters ?? component.$parameters ?? {},
    validTypes: field.value_type ? [VALUE_TYPES[field.value_type]] : undefined,
  }));
  const condition = typeof component.condition === 'string' && component.condition !== '' ? component.condition : undefined;
  return (record, slice) => {
    for (const field of fields) {
      const context = { config, parameters: field.parameters, record, stream_slice: slice };
      const value = templates.string(field.value, context, field.validTypes);
      if (condition === undefined || templates.boolean(condition, { ...context, parameters: component.$parameters ?? {}, value, path: field.path })) {
        setPath(record, field.path, value);
      }
    }
  };
}

function removeFields(component: RemoveFields, templates: Templates, config: unknown): RecordTransform {
  const condition = typeof component.condition === 'string' && component.condition !== '' ? component.condition : undefined;
  const parameters = component.$parameters ?? {};
  const accept = condition === undefined ? undefined : (value: unknown) => templates.boolean(condition, { config: config ?? {}, parameters, property: value });
  return (record) => {
    for (const pointer of component.field_pointers) deleteMatches(record, pointer.map(String), accept);
  };
}

function keysReplace(component: KeysReplace, templates: Templates, config: unknown): RecordTransform {
  const parameters = component.$parameters ?? {};
  return (record, slice) => {
    const context = { config, parameters, record, stream_slice: slice };
    const from = pyText(templates.string(component.old, context));
    const to = pyText(templates.string(component.new, context));
    const replace = (dict: Record<string, unknown>): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(dict)) {
        const renamed = from === '' ? interleave(key, to) : key.split(from).join(to);
        setField(out, renamed, isObject(value) ? replace(value) : value);
      }
      return out;
    };
    const replaced = replace(record);
    for (const key of Object.keys(record)) delete record[key];
    Object.assign(record, replaced);
  };
}

/** Python's `str.replace('', new)`: `new` before every character and at the end. */
function interleave(text: string, insert: string): string {
  return insert + [...text].join(insert) + (text === '' ? '' : insert);
}

function renameKeys(record: Record<string, unknown>, rename: (key: string) => string): void {
  for (const key of Object.keys(record)) {
    const renamed = rename(key);
    if (renamed === key) continue;
    const value = record[key];
    delete record[key];
    setField(record, renamed, value);
  }
}

const TOKEN = /[A-Z]+[a-z]*|[a-z]+|\d+|([^a-zA-Z\d]+)/g;

/**
 * The CDK's KeysToSnakeCaseTransformation: accents dropped (its unidecode), the key cut into words
 * (capitalised runs, lower-case runs, digits), other characters as separators, joined with `_`.
 */
export function snakeCase(key: string): string {
  const ascii = key.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  let tokens = [...ascii.matchAll(TOKEN)].map((match) => (match[1] === undefined ? match[0] : ''));
  if (tokens.length >= 3) tokens = [tokens[0]!, ...tokens.slice(1, -1).filter(Boolean), tokens[tokens.length - 1]!];
  if (tokens.length > 0 && /^\d+$/.test(tokens[0]!)) tokens.unshift('');
  return tokens.map((token) => token.toLowerCase()).join('_');
}

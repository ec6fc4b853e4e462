/**
 * The parts of one request before it is sent: query, headers and body, gathered from several
 * components (the requester's own request_* fields, the paginator, the partition router and the
 * cursor, the authenticator). As in the CDK, two of them giving one key different values is an error,
 * never a silent choice.
 */
import { isObject, setField } from '../json-values.ts';
import type { InjectInto, RequestOption } from '../model.ts';
import { setPath } from './dpath.ts';
import { ManifestReadError } from './read-errors.ts';
import type { Templates } from './templates.ts';

export interface RequestParts {
  query: Record<string, unknown>;
  headers: Record<string, string>;
  bodyJson: Record<string, unknown>;
  /** A form as a mapping, or a raw body a requester wrote as one string. */
  bodyData: Record<string, unknown> | string;
}

export function emptyParts(): RequestParts {
  return { query: {}, headers: {}, bodyJson: {}, bodyData: {} };
}

/** Python's str() of a scalar, as requests sends a query, header or form value. */
export function pyText(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function put(target: Record<string, unknown>, key: string, value: unknown, where: string, caseless = false): void {
  const existing = caseless ? Object.keys(target).find((name) => name.toLowerCase() === key.toLowerCase()) : Object.hasOwn(target, key) ? key : undefined;
  if (existing !== undefined) {
    if (sameValue(target[existing], value)) return;
    throw new ManifestReadError(`Two components give the ${where} ${JSON.stringify(key)} different values`, 'manifest_request_conflict');
  }
  setField(target, key, value);
}

/** Adds `source`'s keys to `target`; a key both give with different values is an error (nested JSON bodies merge). */
export function mergeParts(target: RequestParts, source: Partial<RequestParts>): void {
  for (const [key, value] of Object.entries(source.query ?? {})) put(target.query, key, value, 'query parameter');
  for (const [key, value] of Object.entries(source.headers ?? {})) put(target.headers as Record<string, unknown>, key, value, 'header', true);
  mergeJson(target.bodyJson, source.bodyJson ?? {});
  if (typeof source.bodyData === 'string') {
    if (typeof target.bodyData === 'string' ? target.bodyData !== source.bodyData : Object.keys(target.bodyData).length > 0) {
      throw new ManifestReadError('Two components give the request different form bodies', 'manifest_request_conflict');
    }
    target.bodyData = source.bodyData;
  } else if (source.bodyData) {
    if (typeof target.bodyData === 'string') {
      if (Object.keys(source.bodyData).length > 0)
        throw new ManifestReadError('Two components give the request different form bodies', 'manifest_request_conflict');
    } else for (const [key, value] of Object.entries(source.bodyData)) put(target.bodyData, key, value, 'form field');
  }
}

function mergeJson(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (Object.hasOwn(target, key) && isObject(existing) && isObject(value)) mergeJson(existing, value);
    else put(target, key, value, 'JSON body field');
  }
}

/**
 * The CDK's RequestOption.inject_into_request: `value` under the (templated) field name, or for a JSON
 * body at its nested `field_path`. Field names see `config` and the option's `parameters`.
 */
export function injectOption(option: RequestOption, value: unknown, templates: Templates, config: unknown): Partial<RequestParts> {
  const context = { config, parameters: option.$parameters ?? {} };
  const inject: InjectInto = option.inject_into;
  if (inject === 'body_json' && Array.isArray(option.field_path) && option.field_path.length > 0) {
    const path = option.field_path.map((segment) => pyText(templates.string(segment, context)));
    const body: Record<string, unknown> = {};
    setPath(body, path, value);
    return { bodyJson: body };
  }
  if (option.field_name === undefined || option.field_name === null) throw new ManifestReadError(`A RequestOption injecting into ${inject} needs a field_name`);
  const name = pyText(templates.string(option.field_name, context));
  const single = { [name]: value };
  switch (inject) {
    case 'request_parameter':
      return { query: single };
    case 'header':
      return { headers: { [name]: pyText(value) } };
    case 'body_data':
      return { bodyData: single };
    case 'body_json':
      return { bodyJson: single };
    default:
      throw new ManifestReadError(`A RequestOption cannot inject into ${JSON.stringify(inject)}`);
  }
}

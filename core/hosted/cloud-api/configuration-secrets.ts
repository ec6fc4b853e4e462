import { invalidField } from '../../errors.ts';
import type { JsonSchema } from '../../sdk/index.ts';

/** What every answer shows in place of a secret, as the official API does. */
export const SECRET_MASK = '**********';

/** Fields that hold a secret in any configuration, whatever its schema says. */
const ALWAYS_SECRET = ['access_token', 'token', 'api_token', 'client_secret', 'refresh_token', 'password', 'service_account_info'];

type Json = unknown;
type Loc = Array<string | number>;

/**
 * The names of a configuration's secret fields: those its schema marks (`writeOnly`, or the official
 * descriptions' `airbyte_secret`) anywhere, and the usual credential names.
 */
export function secretFieldsOf(schema: JsonSchema | undefined): Set<string> {
  const names = new Set(ALWAYS_SECRET);
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    const properties = (node as { properties?: Record<string, Record<string, unknown>> }).properties;
    for (const [name, property] of Object.entries(properties ?? {})) {
      if (property?.writeOnly === true || property?.airbyte_secret === true) names.add(name);
    }
    Object.values(node).forEach(walk);
  };
  walk(schema);
  return names;
}

/** A copy of the configuration with every secret (a non-empty string under a secret name, at any depth) masked. */
export function maskSecrets<T extends Json>(value: T, secrets: ReadonlySet<string>): T {
  return mapObjects(value, (key, item) => (secrets.has(key) && typeof item === 'string' && item !== '' ? SECRET_MASK : undefined)) as T;
}

const MAX_DEPTH = 64;

/**
 * The configuration a client sent back, each masked value replaced by the stored one at the same
 * place: a client that read the configuration (masked) may write it back without the secrets. A mask
 * where nothing is stored is refused rather than stored as a secret.
 */
export function restoreMasked<T extends Json>(given: T, stored: Json, loc: Loc): T {
  // No configuration nests this deep; a body that does would exhaust the stack here.
  if (loc.length > MAX_DEPTH) throw invalidField(loc, `a configuration nests at most ${MAX_DEPTH} levels`, 'value_error.too_deep');
  if (given === SECRET_MASK) {
    if (typeof stored === 'string') return stored as T;
    throw invalidField(loc, `${SECRET_MASK} stands for a stored secret, and none is stored here: send the value itself`, 'value_error.masked_secret');
  }
  if (Array.isArray(given)) return given.map((item, i) => restoreMasked(item, Array.isArray(stored) ? stored[i] : undefined, [...loc, i])) as T;
  if (!isObject(given)) return given;
  const storedObject = isObject(stored) ? stored : {};
  return Object.fromEntries(Object.entries(given).map(([key, item]) => [key, restoreMasked(item, storedObject[key], [...loc, key])])) as T;
}

/**
 * PATCH semantics for a configuration: the fields given replace the stored ones, objects merged field
 * by field at any depth (a new token keeps the rest of `credentials`), arrays and values replaced.
 */
export function mergeConfiguration(stored: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    const before = merged[key];
    merged[key] = isObject(value) && isObject(before) ? mergeConfiguration(before, value) : value;
  }
  return merged;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A deep copy in which `replace(key, value)`, when it answers something, stands for that object entry. */
function mapObjects(value: Json, replace: (key: string, value: Json) => Json | undefined): Json {
  if (Array.isArray(value)) return value.map((item) => mapObjects(item, replace));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replace(key, item) ?? mapObjects(item, replace)]));
}

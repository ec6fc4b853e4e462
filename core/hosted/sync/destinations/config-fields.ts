/**
 * Reading a destination's configuration (an object from the public API, validated against its
 * schema there): each reader names the field it refuses, and never quotes a value (it may be a secret).
 */
export type DestinationConfiguration = Record<string, unknown>;

/** A configuration a destination cannot work with, naming the field (the server answers 400; the cloud client an InputError). */
export class DestinationConfigError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

function refuse(type: string, field: string, expected: string): never {
  throw new DestinationConfigError(`${type} destination: "${field}" must be ${expected}`, field);
}

export function requiredString(config: DestinationConfiguration, type: string, field: string): string {
  const value = config[field];
  if (typeof value !== 'string' || value === '') refuse(type, field, 'a non-empty string');
  return value;
}

export function optionalString(config: DestinationConfiguration, type: string, field: string, fallback: string): string {
  return config[field] === undefined || config[field] === null ? fallback : requiredString(config, type, field);
}

export function optionalInteger(config: DestinationConfiguration, type: string, field: string, fallback: number): number {
  const value = config[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) refuse(type, field, 'an integer');
  return value;
}

export function optionalBoolean(config: DestinationConfiguration, type: string, field: string): boolean {
  const value = config[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') refuse(type, field, 'true or false');
  return value;
}

/** A field holding an object whose `key` chooses a variant (`ssl_mode.mode`, `tunnel_method.tunnel_method`). */
export function optionalVariant(config: DestinationConfiguration, type: string, field: string, key: string): string | undefined {
  const value = config[field];
  if (value === undefined || value === null) return undefined;
  const variant = typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  if (typeof variant !== 'string') refuse(type, field, `an object with a string "${key}"`);
  return variant;
}

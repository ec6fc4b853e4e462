/**
 * A value's text as Airbyte's mappers read it (Jackson's asText): a string as it is, a number or
 * boolean as its JSON, null as "null". An object or array as its JSON, where Airbyte reads "" (its
 * hash or comparison would say nothing of the value).
 */
export function fieldText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? 'null';
}

import type { LocalConnectorConfig } from '../../core/index.ts';
import type { CompiledConnector } from '../../core/plugins/compiled-connector.ts';

/** An address nothing listens on: an offline check that reached the upstream would fail, never call out. */
export const NOWHERE = 'http://127.0.0.1:9';

type Schema = Record<string, unknown>;

/**
 * An instance config for checks that must never reach an upstream. A connector with credentials gets
 * a placeholder of its first auth kind; a configured one (an Airbyte manifest) `given`, else a
 * configuration made from its spec: instances check it at once, before any params are looked at.
 */
export function offlineInstanceConfig(connector: CompiledConnector, given?: Record<string, unknown>): LocalConnectorConfig {
  const { definition } = connector;
  if (definition.config === undefined) {
    return { credentials: 'oauth' in definition.auth ? { access_token: 'kit-placeholder' } : { token: 'kit-placeholder' }, base_url: NOWHERE };
  }
  const config = given ?? (placeholderValue(definition.config, 0) as Record<string, unknown>);
  if (connector.validateConfig && !connector.validateConfig(config)) {
    const refused = JSON.stringify(connector.validateConfig.errors?.map(({ instancePath, message }) => `${instancePath || '(root)'} ${message}`));
    throw new Error(
      `the kit's placeholder configuration is refused by the spec (${refused}): pass \`offlineConfig\`, a configuration the spec accepts (nothing is called with it)`,
    );
  }
  return { config };
}

/** What a format's strings look like; the first a `pattern` accepts is taken (Airbyte specs pair date-time with a pattern). */
const STRINGS_BY_FORMAT: Record<string, string[]> = {
  'date-time': ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000Z'],
  date: ['2024-01-01'],
  uri: [NOWHERE],
  email: ['kit@example.invalid'],
};
const STRINGS = ['kit-placeholder', '2024-01-01T00:00:00Z', '2024-01-01', NOWHERE, '1'];

/** A value `schema` accepts, as far as its own words say: its default, const, enum or examples, else one made by type (required fields only). */
function placeholderValue(schema: unknown, depth: number): unknown {
  if (!isSchema(schema) || depth > 16) return 'kit-placeholder';
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  const branch = [schema.oneOf, schema.anyOf].find(Array.isArray)?.[0];
  if (isSchema(branch)) {
    const { oneOf: _oneOf, anyOf: _anyOf, ...rest } = schema;
    return placeholderValue({ ...rest, ...branch }, depth + 1);
  }
  switch ([schema.type].flat().find((type) => type !== 'null') ?? (isSchema(schema.properties) ? 'object' : 'string')) {
    case 'object':
      return placeholderObject(schema, depth);
    case 'array':
      return Array.from({ length: typeof schema.minItems === 'number' ? schema.minItems : 0 }, () => placeholderValue(schema.items, depth + 1));
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : typeof schema.maximum === 'number' ? Math.min(1, schema.maximum) : 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return placeholderString(schema);
  }
}

function placeholderObject(schema: Schema, depth: number): Record<string, unknown> {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
  return Object.fromEntries(required.map((name) => [name, placeholderValue(properties[name], depth + 1)]));
}

function placeholderString(schema: Schema): string {
  const candidates = [...(STRINGS_BY_FORMAT[String(schema.format)] ?? []), ...STRINGS];
  const pattern = typeof schema.pattern === 'string' ? safePattern(schema.pattern) : undefined;
  const fits = candidates.find((candidate) => pattern?.test(candidate) ?? true) ?? candidates[0]!;
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  return fits.padEnd(minLength, 'x');
}

function safePattern(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

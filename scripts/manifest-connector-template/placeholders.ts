/**
 * The placeholders of the manifest package's templates: its configuration fields and entities as
 * README rows, and an example configuration for the README and the kit test's marked place.
 */
import type { ManifestRunner } from '../../core/manifests/connector/manifest-runner.ts';
import type { ManifestSpec } from '../../core/manifests/index.ts';
import type { CompiledConnector } from '../../core/plugins/compiled-connector.ts';

/** A markdown table cell: one line, pipes escaped. */
const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

type ConfigFields = { properties: Record<string, Record<string, unknown>>; names: string[]; required: Set<string> };

/** The spec's top-level configuration fields, in the Connector Builder's `order` (the rest after them, as declared). */
function configFieldsOf(spec: ManifestSpec): ConfigFields {
  const properties = (spec.configSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const rank = (name: string) => (typeof properties[name]!.order === 'number' ? (properties[name]!.order as number) : Number.MAX_SAFE_INTEGER);
  const required = new Set(Array.isArray(spec.configSchema.required) ? (spec.configSchema.required as string[]) : []);
  return { properties, names: Object.keys(properties).sort((a, b) => rank(a) - rank(b)), required };
}

/** README rows of the configuration: field, type, required, secret (`in part`: a field inside it), title and description. */
function configRows({ properties, names, required }: ConfigFields, spec: ManifestSpec): string[] {
  return names.map((name) => {
    const schema = properties[name]!;
    const type = [schema.type ?? (schema.oneOf ? 'object (one of several)' : 'any')].flat().join(' or ');
    const secretPaths = spec.secrets.filter((path) => path[0] === name);
    const secret = secretPaths.some((path) => path.length === 1) ? 'yes' : secretPaths.length > 0 ? 'in part' : '';
    const about = [schema.title, schema.description].filter((text) => typeof text === 'string').join(': ');
    return `| \`${name}\` | ${cell(type)} | ${required.has(name) ? 'yes' : ''} | ${secret} | ${cell(about)} |`;
  });
}

/** README rows of the entities: the stream each reads, its actions, primary key and incremental cursor. */
function entityRows(connector: CompiledConnector, { spec, entities }: ManifestRunner): string[] {
  return [...entities].map(([entity, streamName]) => {
    const stream = spec.streams.find((candidate) => candidate.name === streamName)!;
    const key = stream.primaryKey.map((path) => `\`${path.join('.')}\``).join(', ') || '(none)';
    const incremental = stream.incremental ? `yes${stream.cursorField ? ` (\`${stream.cursorField}\`)` : ''}` : '';
    return `| \`${entity}\` | ${cell(streamName)} | ${connector.actionsOf(entity).join(', ')} | ${key} | ${incremental} |`;
  });
}

/** A configuration to show in code: each required field with its title as the value to put there. */
function configExample({ properties, names, required }: ConfigFields): string {
  const fields = names
    .filter((name) => required.has(name))
    .map((name) => `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)}: '<${cell(String(properties[name]!.title ?? name)).replace(/'/g, '')}>'`);
  return fields.length > 0 ? `{ ${fields.join(', ')} }` : '{}';
}

/** Placeholders of a manifest package (`connector` compiled from it). */
export function manifestPlaceholders(connector: CompiledConnector): Record<string, string> {
  const runner = connector.manifest!;
  const fields = configFieldsOf(runner.spec);
  return {
    __CONFIG_FIELDS__: configRows(fields, runner.spec).join('\n') || '| (none) | | | | |',
    __ENTITIES__: entityRows(connector, runner).join('\n'),
    __CONFIG_EXAMPLE__: configExample(fields),
    __FIRST_ENTITY__: runner.entities.keys().next().value ?? '',
  };
}

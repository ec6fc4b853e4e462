import { isCustomType, UNSUPPORTED_AIRBYTE_COMPONENTS } from './airbyte-component-names.ts';
import { copyJson, isObject, isTruthy, type JsonObject, type PathSegment } from './json-values.ts';
import { type ManifestProblem, type ManifestProblemKind, problemAt } from './manifest-load-error.ts';
import { isReference } from './resolve-references.ts';
import {
  type ComponentKind,
  type ComponentSlot,
  isSupportedType,
  KIND_NAMES,
  SHORT_NAMES,
  SUPPORTED,
  type SupportedComponentType,
  typesOfKinds,
} from './supported-components.ts';

const SOURCE_SLOT: ComponentSlot = { kinds: ['source'], shape: 'one' };

/**
 * Walks a resolved manifest (references replaced, types and `$parameters` propagated) from its root
 * through the fields that hold components (SUPPORTED_COMPONENTS says which), and answers every problem:
 * a Python custom component, a component Plugboard does not run or that no schema has, a component
 * where it cannot stand, a missing required field, and what a source needs to be usable (named,
 * distinct streams; check streams that exist; a URL per requester). Values that are not in component
 * fields (request parameters, schemas, the spec) are data and are not looked into.
 *
 * On the way it puts the manifest in the model's shape, in place: short names become the types they
 * stand for (`ApiKey` → SessionTokenRequestApiKeyAuthenticator), and a JsonFileSchemaLoader whose schema
 * is in the manifest's `schemas` becomes the InlineSchemaLoader of it.
 */
export function checkComponents(manifest: JsonObject): ManifestProblem[] {
  const checker = new ComponentChecker(isObject(manifest.schemas) ? manifest.schemas : {});
  checker.slot(manifest, SOURCE_SLOT, []);
  return checker.problems;
}

class ComponentChecker {
  readonly problems: ManifestProblem[] = [];

  constructor(private readonly schemas: JsonObject) {}

  /** The value of a component field, shaped as the slot says. */
  slot(value: unknown, slot: ComponentSlot, at: PathSegment[]): void {
    if (value === undefined || value === null) return;
    if (slot.shape === 'list' || (slot.shape === 'one_or_list' && Array.isArray(value))) {
      if (!Array.isArray(value)) return this.report('invalid', at, `must be a list of ${kindsText(slot.kinds)}`);
      for (const [index, item] of value.entries()) this.item(item, slot, [...at, index]);
    } else if (slot.shape === 'map') {
      if (!isObject(value)) return this.report('invalid', at, `must be a mapping of names to ${kindsText(slot.kinds)}`);
      for (const [name, item] of Object.entries(value)) this.item(item, slot, [...at, name]);
    } else {
      this.item(value, slot, at);
    }
  }

  private item(value: unknown, slot: ComponentSlot, at: PathSegment[]): void {
    // An unresolved reference was reported where it is written.
    if (isReference(value) || (isObject(value) && Object.hasOwn(value, '$ref'))) return;
    if (typeof value === 'string' && (slot.orTemplate || slot.orValues?.includes(value))) return;
    if (!isObject(value)) {
      const allowed = slot.orValues ? `one of ${slot.orValues.join(', ')}` : kindsText(slot.kinds);
      return this.report('invalid', at, `must be ${allowed}, not ${JSON.stringify(value)}`);
    }
    const written = value.type;
    if (Object.hasOwn(value, 'class_name')) {
      const type = typeof written === 'string' ? written : 'a custom component';
      return this.report('custom_component', at, `${type} (class_name ${String(value.class_name)}) is not supported${CUSTOM_REASON}`, typeOrCustom(written));
    }
    if (typeof written !== 'string' || written === '') {
      return this.report('invalid', at, `has no \`type\`: expected ${kindsText(slot.kinds)}`);
    }
    const type = Object.hasOwn(SHORT_NAMES, written) ? SHORT_NAMES[written]! : written;
    if (type !== written) value.type = type;
    if (isCustomType(type)) return this.report('custom_component', at, `${type} is not supported${CUSTOM_REASON}`, type);
    if (!isSupportedType(type)) {
      if (UNSUPPORTED_AIRBYTE_COMPONENTS.has(type)) return this.report('unsupported_component', at, `${type} is not supported by Plugboard`, type);
      return this.report('unknown_component', at, `${type} is not a component type of Airbyte's declarative manifests`, type);
    }
    const entry = SUPPORTED[type]!;
    if (!slot.kinds.includes(entry.kind)) return this.report('invalid', at, `${written} cannot stand here: expected ${kindsText(slot.kinds)}`, type);
    this.fields(value, type, at);
  }

  private fields(component: JsonObject, type: SupportedComponentType, at: PathSegment[]): void {
    const entry = SUPPORTED[type]!;
    for (const field of entry.required) {
      if (component[field] === undefined || component[field] === null) this.report('invalid', at, `${type} needs \`${field}\``, type);
    }
    for (const [field, what] of Object.entries(entry.unsupportedFields ?? {})) {
      const value = component[field];
      if (isTruthy(value)) this.report('unsupported_component', [...at, field], `${what} is not supported by Plugboard`, heldType(value) ?? `${type}.${field}`);
    }
    for (const [field, slot] of Object.entries(entry.components)) this.slot(component[field], slot, [...at, field]);
    CHECKS[type]?.call(this, component, at);
  }

  /** A JsonFileSchemaLoader reads a file of the connector's Python package: usable only when that schema is in the manifest. */
  inlineFileSchemas(stream: JsonObject, at: PathSegment[]): void {
    const inline = (loader: unknown, where: PathSegment[]): unknown => {
      if (!isObject(loader) || loader.type !== 'JsonFileSchemaLoader') return loader;
      const name = schemaName(loader.file_path, stream.name);
      if (name !== undefined && Object.hasOwn(this.schemas, name)) {
        const { file_path: _, ...rest } = loader;
        return { ...rest, type: 'InlineSchemaLoader', schema: copyJson(this.schemas[name]) };
      }
      const file = typeof loader.file_path === 'string' ? loader.file_path : `the schema file of stream ${JSON.stringify(stream.name)}`;
      const missing = name === undefined ? 'no schema name' : `no \`schemas.${name}\``;
      this.report(
        'unsupported_component',
        where,
        `JsonFileSchemaLoader is not supported here: it reads ${file} from a Python package, and the manifest has ${missing}`,
        'JsonFileSchemaLoader',
      );
      return loader;
    };
    const loaders = stream.schema_loader;
    if (Array.isArray(loaders)) stream.schema_loader = loaders.map((loader, index) => inline(loader, [...at, 'schema_loader', index]));
    else if (loaders !== undefined) stream.schema_loader = inline(loaders, [...at, 'schema_loader']);
  }

  report(kind: ManifestProblemKind, at: PathSegment[], message: string, component?: string): void {
    this.problems.push(problemAt(kind, at, message, component));
  }
}

const CUSTOM_REASON = ' (Python custom components cannot run in Plugboard)';

/** The component type a field holds (the first one, for a list), if it says. */
function heldType(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return isObject(first) && typeof first.type === 'string' && first.type !== '' ? first.type : undefined;
}

function typeOrCustom(type: unknown): string {
  return typeof type === 'string' && type !== '' ? type : 'custom component';
}

function kindsText(kinds: readonly ComponentKind[]): string {
  const names = kinds.map((kind) => KIND_NAMES[kind]).join(' or ');
  const types = typesOfKinds(kinds);
  return types.length === 1 ? names : `${names} (${types.join(', ')})`;
}

/** The `schemas` key of a JsonFileSchemaLoader: its file's name without `.json`, or the stream name when the path is a template or absent. */
function schemaName(filePath: unknown, streamName: unknown): string | undefined {
  if (typeof filePath === 'string' && filePath !== '' && !filePath.includes('{{')) {
    return filePath
      .split('/')
      .at(-1)!
      .replace(/\.json$/, '');
  }
  return typeof streamName === 'string' && streamName !== '' ? streamName : undefined;
}

/** The fields Airbyte's schema allows at the top of a manifest (it allows no other). */
const TOP_LEVEL_FIELDS: ReadonlySet<string> = new Set([
  'type',
  'version',
  'check',
  'streams',
  'dynamic_streams',
  'spec',
  'schemas',
  'definitions',
  'concurrency_level',
  'api_budget',
  'stream_groups',
  'max_concurrent_async_job_count',
  'metadata',
  'description',
]);

type Check = (this: ComponentChecker, component: JsonObject, at: PathSegment[]) => void;

/** What a component needs beyond its required fields, by type. */
const CHECKS: Partial<Record<SupportedComponentType, Check>> = {
  DeclarativeSource(source, at) {
    for (const key of Object.keys(source)) {
      if (!TOP_LEVEL_FIELDS.has(key)) this.report('invalid', [...at, key], `is not a field of a declarative manifest (${[...TOP_LEVEL_FIELDS].join(', ')})`);
    }
    const streams = Array.isArray(source.streams) ? source.streams : [];
    if (Array.isArray(source.streams) && streams.length === 0) this.report('invalid', [...at, 'streams'], 'a source needs at least one stream');
    const names = new Map<string, number>();
    streams.forEach((stream, index) => {
      if (!isObject(stream) || typeof stream.name !== 'string' || stream.name === '') return;
      const first = names.get(stream.name);
      if (first === undefined) names.set(stream.name, index);
      else this.report('invalid', [...at, 'streams', index, 'name'], `stream name ${JSON.stringify(stream.name)} is also the name of streams[${first}]`);
    });
    const check = source.check;
    // A stream left unresolved (its reference was reported) may be the one a check names.
    const unresolved = streams.some((stream) => isReference(stream) || (isObject(stream) && Object.hasOwn(stream, '$ref')));
    if (unresolved || !isObject(check) || !Array.isArray(check.stream_names)) return;
    check.stream_names.forEach((name, index) => {
      if (typeof name === 'string' && !names.has(name)) {
        this.report('invalid', [...at, 'check', 'stream_names', index], `${JSON.stringify(name)} is not a stream of the manifest`);
      }
    });
  },
  CheckStream(check, at) {
    const names = check.stream_names;
    if (names !== undefined && (!Array.isArray(names) || names.length === 0 || !names.every((name) => typeof name === 'string'))) {
      this.report('invalid', [...at, 'stream_names'], 'must be a non-empty list of stream names');
    }
  },
  DeclarativeStream(stream, at) {
    if (stream.name !== undefined && (typeof stream.name !== 'string' || stream.name === '')) {
      this.report('invalid', [...at, 'name'], 'a stream name must be a non-empty string');
    }
    if (stream.primary_key !== undefined && !isPrimaryKey(stream.primary_key)) {
      this.report('invalid', [...at, 'primary_key'], 'must be a field name, a list of field names, or a list of field paths');
    }
    this.inlineFileSchemas(stream, at);
  },
  HttpRequester(requester, at) {
    if (!isTruthy(requester.url_base) && !isTruthy(requester.url)) this.report('invalid', at, 'HttpRequester needs `url_base` or `url`', 'HttpRequester');
    // Newer CDKs accept a QueryProperties component among the request parameters.
    const parameters = isObject(requester.request_parameters) ? requester.request_parameters : {};
    for (const [name, value] of Object.entries(parameters)) {
      if (!isObject(value) || typeof value.type !== 'string') continue;
      const type = value.type;
      if (isCustomType(type)) this.report('custom_component', [...at, 'request_parameters', name], `${type} is not supported${CUSTOM_REASON}`, type);
      else if (UNSUPPORTED_AIRBYTE_COMPONENTS.has(type)) {
        this.report('unsupported_component', [...at, 'request_parameters', name], `${type} is not supported by Plugboard`, type);
      }
    }
  },
  DpathExtractor(extractor, at) {
    if (extractor.field_path !== undefined && !Array.isArray(extractor.field_path))
      this.report('invalid', [...at, 'field_path'], 'must be a list of path segments');
  },
  DatetimeBasedCursor(cursor, at) {
    if (isTruthy(cursor.step) !== isTruthy(cursor.cursor_granularity)) {
      this.report('invalid', at, 'DatetimeBasedCursor needs both `step` and `cursor_granularity`, or neither', 'DatetimeBasedCursor');
    }
  },
  ApiKeyAuthenticator(authenticator, at) {
    if (isTruthy(authenticator.inject_into) && isTruthy(authenticator.header)) {
      this.report('invalid', at, 'ApiKeyAuthenticator takes `inject_into` or the deprecated `header`, not both', 'ApiKeyAuthenticator');
    }
  },
};

function isPrimaryKey(value: unknown): boolean {
  if (typeof value === 'string') return true;
  if (!Array.isArray(value)) return false;
  return value.every((item) => typeof item === 'string') || value.every((item) => Array.isArray(item) && item.every((part) => typeof part === 'string'));
}

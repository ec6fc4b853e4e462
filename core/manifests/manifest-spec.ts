import type { JsonSchema } from '../sdk/index.ts';
import { isObject } from './json-values.ts';
import type { LoadedManifest } from './load-manifest.ts';
import type { DeclarativeStream, PartitionRouter, PrimaryKey } from './model.ts';

/** What a loaded manifest says about itself: its configuration, its credential check, its streams. */
export interface ManifestSpec {
  /** `spec.connection_specification`: the JSON Schema of the source's configuration. */
  configSchema: JsonSchema;
  /** The configuration fields its schema marks `airbyte_secret: true`, as key paths (`['credentials', 'client_secret']`; `*` for array items). */
  secrets: string[][];
  documentationUrl?: string;
  /** The streams the credential check reads (`check.stream_names`). */
  checkStreams: string[];
  streams: ManifestStreamDescription[];
}

/** One stream, as an entity. */
export interface ManifestStreamDescription {
  name: string;
  /** As key paths: `id` → `[['id']]`, `[a, b]` → `[['a'], ['b']]`, `[[a, b]]` → `[['a', 'b']]`; `[]` without one. */
  primaryKey: string[][];
  /** The records' JSON Schema (InlineSchemaLoader; several loaders' properties merged); `{}` without a schema loader. */
  schema: JsonSchema;
  /** It has an `incremental_sync` cursor. */
  incremental: boolean;
  /** The cursor's record field when incremental (a template in a few manifests). */
  cursorField?: string;
  /** The streams read first for its partitions (SubstreamPartitionRouter parents), by name. */
  parents: string[];
}

export function manifestSpec(loaded: LoadedManifest): ManifestSpec {
  const { spec, check, streams } = loaded.source;
  const configSchema = spec.connection_specification;
  return {
    configSchema,
    secrets: secretPaths(configSchema),
    ...(typeof spec.documentation_url === 'string' && { documentationUrl: spec.documentation_url }),
    checkStreams: [...check.stream_names],
    streams: streams.map(describeStream),
  };
}

function describeStream(stream: DeclarativeStream): ManifestStreamDescription {
  const cursor = stream.incremental_sync;
  return {
    name: stream.name,
    primaryKey: primaryKeyPaths(stream.primary_key),
    schema: streamSchema(stream),
    incremental: cursor !== undefined && cursor !== null,
    ...(typeof cursor?.cursor_field === 'string' && { cursorField: cursor.cursor_field }),
    parents: parentStreams(stream.retriever.partition_router),
  };
}

export function primaryKeyPaths(key: PrimaryKey | undefined): string[][] {
  if (key === undefined || key === null || key === '') return [];
  if (typeof key === 'string') return [[key]];
  return key.map((part) => (typeof part === 'string' ? [part] : [...part]));
}

/** The schema as the CDK builds it: one loader's schema, or the first loader's with every loader's properties merged in. */
function streamSchema(stream: DeclarativeStream): JsonSchema {
  const loaders = stream.schema_loader === undefined || stream.schema_loader === null ? [] : [stream.schema_loader].flat();
  const schemas = loaders.map((loader) => (isObject(loader.schema) ? loader.schema : {}));
  if (schemas.length <= 1) return schemas[0] ?? {};
  const properties = Object.assign({}, ...schemas.map((schema) => (isObject(schema.properties) ? schema.properties : {})));
  return { ...schemas[0], properties };
}

function parentStreams(router: PartitionRouter | PartitionRouter[] | undefined): string[] {
  const names: string[] = [];
  const visit = (node: PartitionRouter | PartitionRouter[] | undefined): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node?.type === 'SubstreamPartitionRouter') {
      for (const config of node.parent_stream_configs) if (!names.includes(config.stream.name)) names.push(config.stream.name);
    } else if (node?.type === 'CartesianProductStreamSlicer') visit(node.stream_slicers);
  };
  visit(router);
  return names;
}

/** Paths of the fields marked `airbyte_secret: true`, through `properties`, `oneOf`/`anyOf`/`allOf` branches and array `items`. */
export function secretPaths(schema: unknown): string[][] {
  const found = new Map<string, string[]>();
  const walk = (node: unknown, path: string[], depth: number): void => {
    if (!isObject(node) || depth > 64) return;
    if (node.airbyte_secret === true && path.length > 0) found.set(JSON.stringify(path), path);
    if (isObject(node.properties)) for (const [key, property] of Object.entries(node.properties)) walk(property, [...path, key], depth + 1);
    for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
      const branches = node[keyword];
      if (Array.isArray(branches)) for (const branch of branches) walk(branch, path, depth + 1);
    }
    if (node.items !== undefined) for (const item of [node.items].flat()) walk(item, [...path, '*'], depth + 1);
  };
  walk(schema, [], 0);
  return [...found.values()];
}

import type { Ajv } from 'ajv';
import type { ActionDefinition, ConnectorDefinition, JsonSchema, ReplicationContext, SearchIndex } from '../../sdk/index.ts';
import { defineSearchAction } from '../../sdk/index.ts';
import { isObject } from '../json-values.ts';
import type { LoadedManifest } from '../load-manifest.ts';
import type { ManifestSpec, ManifestStreamDescription } from '../manifest-spec.ts';
import type { DeclarativeStream } from '../model.ts';
import { portableSchema } from './portable-schema.ts';

/** Records a `list` answers at most, and by default. */
export const LIST_LIMIT = { max: 1000, default: 100 };
/** Upstream statuses a manifest read reports as a refused credential (the CDK's check fails on them too). */
export const REFUSED_CREDENTIAL_CODES = ['upstream_http_401', 'upstream_http_403'];
/** At most this many string fields of a stream are full-text indexed for search. */
const MAX_TEXT_FIELDS = 32;

const LIST_META: JsonSchema = {
  type: 'object',
  properties: {
    next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next records; null after the last.' },
    state: {
      description:
        "The stream's state after these records, in Airbyte's per-stream format (incremental streams): pass it as `state` to read only what is newer.",
    },
  },
};

/**
 * The connector definition a manifest runs as: each stream an entity with `list` (and `get` where
 * the stream has a one-field primary key and a path of its own to append the id to), `search` over
 * replicated records where the primary key is a top-level field, the manifest's configuration schema
 * in place of credentials, and its `check` stream as the credential check. The reads themselves are
 * the manifest interpreter's (see ManifestRunner); the definition declares what they take and give.
 */
export function manifestDefinition(loaded: LoadedManifest, type: string, spec: ManifestSpec, entities: Map<string, string>, ajv: Ajv): ConnectorDefinition {
  const streams = new Map(loaded.source.streams.map((stream) => [stream.name, stream]));
  const described = new Map(spec.streams.map((stream) => [stream.name, stream]));
  const actions: ActionDefinition[] = [];
  const searchable: string[] = [];
  for (const [entity, streamName] of entities) {
    const stream = described.get(streamName)!;
    const record = portableSchema(stream.schema, ajv);
    actions.push(listAction(entity, stream, record));
    if (getPath(streams.get(streamName)!, stream)) actions.push(getAction(entity, stream, record));
    const index = searchIndexOf(stream, record);
    if (index) {
      actions.push(defineSearchAction(entity, index));
      searchable.push(entity);
    }
  }
  const checkEntity = [...entities].find(([, stream]) => stream === spec.checkStreams[0])?.[0] ?? actions[0]!.entity;
  return {
    type,
    displayName: displayNameOf(type),
    auth: {},
    config: portableSchema(spec.configSchema, ajv),
    // Each stream's requester has its own url_base (often from the config): this one is never called.
    defaultBaseUrl: 'https://manifest.invalid',
    transport: { timeoutMs: 60_000, maxRetries: 0, maxRetryAfterSeconds: 60, errors: { codePath: 'error', statusByCode: {} } },
    pagination: { cursorParam: 'cursor', nextCursorMeta: 'next_cursor' },
    actions,
    check: { entity: checkEntity, action: 'list', params: { limit: 1 }, rejectedCodes: REFUSED_CREDENTIAL_CODES },
    ...(searchable.length > 0 ? { replicate: (context: ReplicationContext) => replicateWhole(context, searchable) } : {}),
  };
}

function listAction(entity: string, stream: ManifestStreamDescription, record: JsonSchema): ActionDefinition {
  return {
    entity,
    action: 'list',
    description: `Records of the manifest's ${stream.name} stream${stream.incremental ? ' (incremental: pass a saved `state` for what is newer)' : ''}.`,
    params: {
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: LIST_LIMIT.max, description: `Records per call (default ${LIST_LIMIT.default}).` },
        cursor: { type: 'string', minLength: 1, description: 'The `next_cursor` of the previous call.' },
        state: { type: 'object', description: "A state this stream's reads answered (`meta.state`), or Airbyte's state message for it." },
      },
      additionalProperties: false,
    },
    record,
    meta: LIST_META,
    response: { records: 'records', meta: { next_cursor: 'next_cursor', state: 'state' } },
    paginated: true,
    idempotent: true,
  };
}

function getAction(entity: string, stream: ManifestStreamDescription, record: JsonSchema): ActionDefinition {
  const key = stream.primaryKey[0]![0]!;
  return {
    entity,
    action: 'get',
    description: `One record of the ${stream.name} stream by its ${key}, from the stream's path followed by the id.`,
    params: {
      type: 'object',
      properties: { id: { type: ['string', 'integer'], minLength: 1, description: `The record's ${key}.` } },
      required: ['id'],
      additionalProperties: false,
    },
    record,
    response: { records: '' },
    idempotent: true,
  };
}

/**
 * The path a stream's single records sit under (`/items` → `/items/{id}`): only for a one-field
 * primary key, a SimpleRetriever without partitions whose requester has a `path` that reads
 * nothing of a slice or a page.
 */
export function getPath(stream: DeclarativeStream, described: ManifestStreamDescription): string | undefined {
  if (described.primaryKey.length !== 1 || described.primaryKey[0]!.length !== 1) return undefined;
  const { retriever } = stream;
  if (retriever.type !== 'SimpleRetriever' || (retriever.partition_router !== undefined && retriever.partition_router !== null)) return undefined;
  const { requester } = retriever;
  const path = isObject(requester) ? requester.path : undefined;
  if (typeof path !== 'string' || path === '' || /stream_(slice|partition|interval)|next_page_token/.test(path)) return undefined;
  return path;
}

/** What search keeps of a stream: its top-level fields, its primary key as the id, its string fields indexed by word. */
function searchIndexOf(stream: ManifestStreamDescription, record: JsonSchema): SearchIndex | undefined {
  // Search reads dots and brackets in a field name as a path: such fields (`@odata.type`) are kept out of its document.
  const properties = isObject(record.properties)
    ? Object.fromEntries(Object.entries(record.properties).filter(([name, schema]) => !/[.[\]]/.test(name) && isObject(schema)))
    : undefined;
  const key = stream.primaryKey.map((path) => (path.length === 1 ? path[0]! : undefined));
  if (!properties || key.length === 0 || key.some((field) => field === undefined || !(field in properties))) return undefined;
  const document: JsonSchema = { type: 'object', properties };
  // Text fields are those whose first type but null is a string, as the store reads a field's kind.
  const strings = Object.entries(properties)
    .filter(([, schema]) => firstType(schema) === 'string')
    .map(([name]) => name);
  return { document, id: key.length === 1 ? key[0]! : (key as string[]), textFields: strings.slice(0, MAX_TEXT_FIELDS) };
}

function firstType(schema: unknown): unknown {
  const declared = isObject(schema) ? schema.type : undefined;
  return (Array.isArray(declared) ? declared : [declared]).find((type) => type !== 'null');
}

/** Replication of a manifest: each searchable stream read whole and replaced. */
async function replicateWhole(context: ReplicationContext, entities: string[]): Promise<void> {
  for (const entity of entities) await context.replaceAll(entity, context.list(entity, 'list', { limit: LIST_LIMIT.max }));
}

function displayNameOf(type: string): string {
  return type
    .split(/[-_]/)
    .filter((word) => word !== '')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
}

/**
 * The CDK's partition routers: the partitions a stream is read in, each with what its requests carry.
 * - ListPartitionRouter: one partition `{<cursor_field>: value}` per value (a list, or a template giving
 *   one), the value injected by `request_option`;
 * - SubstreamPartitionRouter: the parent stream read through the same reader, one partition
 *   `{<partition_field>: value at parent_key, parent_slice: the parent record's partition}` per parent
 *   record that has the key, with `extra_fields` from the parent record; with `incremental_dependency`
 *   the parent is read from its saved state and its state is kept for the child's;
 * - a list of routers (or a CartesianProductStreamSlicer): every combination, the first router's keys
 *   winning a clash, options of all of them.
 * Parents are read as partitions are consumed, never collected first.
 */
import type { DeclarativeStream, ListPartitionRouter, ParentStreamConfig, PartitionRouter, SubstreamPartitionRouter } from '../model.ts';
import { getPath } from './dpath.ts';
import { ManifestReadError } from './read-errors.ts';
import type { ReadRuntime } from './read-runtime.ts';
import { injectOption, pyText, type RequestParts } from './request-parts.ts';
import type { StreamRecord } from './record-selector.ts';
import type { StreamSlice } from './templates.ts';

export interface Partition {
  partition: Record<string, unknown>;
  extraFields: Record<string, unknown>;
  options: Partial<RequestParts>[];
}

/** What a router needs of the reader: a parent stream's records with their slices, and its states. */
/** A page's records (of one slice), or a state checkpoint. */
export type ParentMessage = { type: 'records'; records: StreamRecord[]; slice: StreamSlice } | { type: 'state'; state: Record<string, unknown> };
export type ReadParent = (stream: DeclarativeStream, state: Record<string, unknown> | undefined) => AsyncIterable<ParentMessage>;

export interface PartitionSource {
  partitions(): AsyncGenerator<Partition>;
  /** The parents' latest states by stream name (incremental_dependency), or undefined. */
  parentState(): Record<string, unknown> | undefined;
}

export function partitionSource(
  router: PartitionRouter | PartitionRouter[] | undefined,
  runtime: ReadRuntime,
  readParent: ReadParent,
  savedParentState: Record<string, unknown> | undefined,
): PartitionSource {
  if (router === undefined || router === null || (Array.isArray(router) && router.length === 0)) {
    return {
      partitions: async function* () {
        yield { partition: {}, extraFields: {}, options: [] };
      },
      parentState: () => undefined,
    };
  }
  if (Array.isArray(router)) return product(router.map((one) => partitionSource(one, runtime, readParent, savedParentState)));
  switch (router.type) {
    case 'ListPartitionRouter':
      return listRouter(router, runtime);
    case 'SubstreamPartitionRouter':
      return substreamRouter(router, runtime, readParent, savedParentState);
    case 'CartesianProductStreamSlicer':
      return partitionSource(router.stream_slicers, runtime, readParent, savedParentState);
    default:
      throw new ManifestReadError(`Partition router ${(router as { type: string }).type} cannot run`, 'manifest_unsupported_component');
  }
}

function listRouter(router: ListPartitionRouter, runtime: ReadRuntime): PartitionSource {
  const context = { config: runtime.config, parameters: router.$parameters ?? {} };
  const field = pyText(runtime.templates.string(router.cursor_field, context));
  const values = typeof router.values === 'string' ? runtime.templates.string(router.values, context) : router.values;
  if (!Array.isArray(values)) throw new ManifestReadError('ListPartitionRouter values must be a list (or a template giving one)', 'manifest_config_invalid');
  return {
    partitions: async function* () {
      for (const value of values) {
        const options = router.request_option && isTruthy(value) ? [injectOption(router.request_option, value, runtime.templates, runtime.config)] : [];
        yield { partition: { [field]: value }, extraFields: {}, options };
      }
    },
    parentState: () => undefined,
  };
}

function substreamRouter(
  router: SubstreamPartitionRouter,
  runtime: ReadRuntime,
  readParent: ReadParent,
  savedParentState: Record<string, unknown> | undefined,
): PartitionSource {
  const latest: Record<string, unknown> = { ...savedParentState };
  let tracksParents = false;
  const configs = router.parent_stream_configs.map((config) => prepareParent(config, runtime));
  return {
    partitions: async function* () {
      for (const parent of configs) {
        const incremental = parent.config.incremental_dependency === true;
        tracksParents ||= incremental;
        const name = parent.config.stream.name;
        const saved = incremental ? (savedParentState?.[name] as Record<string, unknown> | undefined) : undefined;
        for await (const message of readParent(parent.config.stream, saved)) {
          if (message.type === 'state') {
            // All records of the parent's closed slice have been turned into partitions and read by now.
            if (incremental) latest[name] = message.state;
            continue;
          }
          for (const record of message.records) {
            const value = getPath(record, parent.key);
            if (value === undefined) continue;
            const partition = { [parent.field]: value, parent_slice: { ...message.slice.partition } };
            const extraFields: Record<string, unknown> = {};
            for (const path of parent.config.extra_fields ?? []) extraFields[path.join('.')] = getPath(record, path) ?? null;
            const options =
              parent.config.request_option && isTruthy(value) ? [injectOption(parent.config.request_option, value, runtime.templates, runtime.config)] : [];
            yield { partition, extraFields, options };
          }
        }
      }
    },
    parentState: () => (tracksParents ? latest : undefined),
  };
}

function prepareParent(config: ParentStreamConfig, runtime: ReadRuntime) {
  const context = { config: runtime.config, parameters: config.$parameters ?? {} };
  const key = pyText(runtime.templates.string(config.parent_key, context)).split('/');
  const field = pyText(runtime.templates.string(config.partition_field, context));
  return { config, key, field };
}

/** itertools.product order: the first router outermost. Later routers' partitions are listed once (a list router's values, usually). */
function product(sources: PartitionSource[]): PartitionSource {
  return {
    partitions: async function* () {
      const [first, ...rest] = sources;
      if (!first) return;
      const listed: Partition[][] = [];
      for (const source of rest) {
        const partitions: Partition[] = [];
        for await (const partition of source.partitions()) partitions.push(partition);
        listed.push(partitions);
      }
      for await (const head of first.partitions()) {
        for (const tail of combinations(listed)) {
          const all = [head, ...tail];
          // ChainMap: the first router's keys win.
          yield {
            partition: Object.assign({}, ...all.map((part) => part.partition).reverse()),
            extraFields: Object.assign({}, ...all.map((part) => part.extraFields).reverse()),
            options: all.flatMap((part) => part.options),
          };
        }
      }
    },
    parentState: () => {
      const states = sources.map((source) => source.parentState()).filter((state) => state !== undefined);
      return states.length ? Object.assign({}, ...states) : undefined;
    },
  };
}

function* combinations(lists: Partition[][], at = 0): Generator<Partition[]> {
  if (at === lists.length) {
    yield [];
    return;
  }
  for (const item of lists[at]!) for (const tail of combinations(lists, at + 1)) yield [item, ...tail];
}

function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

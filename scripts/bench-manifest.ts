/**
 * `npm run bench:manifest`: the same records read through an Airbyte declarative manifest (Plugboard's
 * interpreter) and through a hand-written Plugboard connector, from one local upstream serving
 * 200,000 items: cursor pagination, a substream (projects → tasks) and an incremental stream read in
 * date windows. Prints each round's times, records/s of each (medians of interleaved rounds), peak RSS,
 * the median of the rounds' own native/manifest time ratios, and last
 * `manifest_over_native=<manifest rate / native rate>` (target: 0.9 or more).
 */
import { loadManifest } from '../core/manifests/index.ts';
import { readStream } from '../core/manifests/read/index.ts';
import { defineAction, defineConnector } from '../core/sdk/index.ts';
import { createRuntime } from '../index.ts';
import { EPOCH_MS, RestUpstream } from '../testing/index.ts';
import { interleave, quantile } from './bench-support.ts';

const ITEMS = Number(process.env.BENCH_MANIFEST_ITEMS ?? 200_000);
const PROJECTS = 200;
const TASKS_PER_PROJECT = 100;
const PAGE = 1000;
const KEY = 'bench-key';
const DAY_MS = 86_400_000;
/** The incremental stream reads every item in windows of 30 days, oldest first. */
const WINDOW_DAYS = 30;
const END = new Date(EPOCH_MS + ITEMS * 60_000).toISOString();

const MANIFEST = `
version: 6.44.0
type: DeclarativeSource
check: { type: CheckStream, stream_names: [items] }
definitions:
  requester:
    type: HttpRequester
    url_base: "{{ config['base_url'] }}/api"
    authenticator: { type: ApiKeyAuthenticator, api_token: "{{ config['api_key'] }}", inject_into: { type: RequestOption, inject_into: header, field_name: X-Api-Key } }
  selector: { type: RecordSelector, extractor: { type: DpathExtractor, field_path: [data] } }
  paginator:
    type: DefaultPaginator
    page_size_option: { type: RequestOption, inject_into: request_parameter, field_name: limit }
    page_token_option: { type: RequestOption, inject_into: request_parameter, field_name: cursor }
    pagination_strategy: { type: CursorPagination, cursor_value: "{{ response.next_cursor }}", stop_condition: "{{ response.next_cursor is none }}", page_size: ${PAGE} }
  stream:
    type: DeclarativeStream
    primary_key: id
    retriever: { type: SimpleRetriever, requester: { $ref: "#/definitions/requester" }, record_selector: { $ref: "#/definitions/selector" }, paginator: { $ref: "#/definitions/paginator" } }
streams:
  - $ref: "#/definitions/stream"
    name: items
    retriever: { type: SimpleRetriever, requester: { $ref: "#/definitions/requester", path: /items }, record_selector: { $ref: "#/definitions/selector" }, paginator: { $ref: "#/definitions/paginator" } }
  - $ref: "#/definitions/stream"
    name: projects
    retriever: { type: SimpleRetriever, requester: { $ref: "#/definitions/requester", path: /projects }, record_selector: { $ref: "#/definitions/selector" }, paginator: { $ref: "#/definitions/paginator" } }
  - $ref: "#/definitions/stream"
    name: tasks
    retriever:
      type: SimpleRetriever
      requester: { $ref: "#/definitions/requester", path: "/projects/{{ stream_partition.project_id }}/tasks" }
      record_selector: { $ref: "#/definitions/selector" }
      paginator: { $ref: "#/definitions/paginator" }
      partition_router:
        type: SubstreamPartitionRouter
        parent_stream_configs:
          - { type: ParentStreamConfig, parent_key: id, partition_field: project_id, stream: { $ref: "#/streams/1" } }
  - $ref: "#/definitions/stream"
    name: recent_items
    retriever: { type: SimpleRetriever, requester: { $ref: "#/definitions/requester", path: /items }, record_selector: { $ref: "#/definitions/selector" }, paginator: { $ref: "#/definitions/paginator" } }
    incremental_sync:
      type: DatetimeBasedCursor
      cursor_field: updated_at
      datetime_format: "%Y-%m-%dT%H:%M:%S.%fZ"
      start_datetime: { type: MinMaxDatetime, datetime: "{{ config['start_date'] }}", datetime_format: "%Y-%m-%dT%H:%M:%S.%fZ" }
      end_datetime: { type: MinMaxDatetime, datetime: "{{ config['end_date'] }}", datetime_format: "%Y-%m-%dT%H:%M:%S.%fZ" }
      step: P${WINDOW_DAYS}D
      cursor_granularity: PT0.001S
      start_time_option: { type: RequestOption, inject_into: request_parameter, field_name: updated_after }
      end_time_option: { type: RequestOption, inject_into: request_parameter, field_name: updated_before }
spec:
  type: Spec
  connection_specification:
    type: object
    required: [base_url, api_key]
    properties:
      base_url: { type: string }
      api_key: { type: string, airbyte_secret: true }
      start_date: { type: string }
      end_date: { type: string }
`;

/** The same upstream as a hand-written Plugboard connector: items (in windows too), projects, a project's tasks. */
const page = { type: 'object', properties: { cursor: { type: 'string' }, limit: { type: 'integer' } } };
const record = { type: 'object' };
const meta = { type: 'object', properties: { next_cursor: { type: ['string', 'null'] } } };
const response = { records: 'data', meta: { next_cursor: 'next_cursor' } };
const native = defineConnector({
  type: 'bench-rest',
  displayName: 'Bench REST upstream',
  auth: { token: { header: 'X-Api-Key' } },
  defaultBaseUrl: 'http://127.0.0.1/api',
  transport: { timeoutMs: 60_000, maxRetries: 2, maxRetryAfterSeconds: 10, errors: { codePath: 'error', statusByCode: {} } },
  pagination: { cursorParam: 'cursor', nextCursorMeta: 'next_cursor' },
  actions: [
    defineAction({
      entity: 'items',
      action: 'list',
      description: 'Items, oldest first, optionally in a window of update times',
      params: { ...page, properties: { ...page.properties, updated_after: { type: 'string' }, updated_before: { type: 'string' } } },
      record,
      meta,
      request: { method: 'GET', path: '/items' },
      response,
      paginated: true,
    }),
    defineAction({
      entity: 'projects',
      action: 'list',
      description: 'Projects',
      params: page,
      record,
      meta,
      request: { method: 'GET', path: '/projects' },
      response,
      paginated: true,
    }),
    defineAction({
      entity: 'tasks',
      action: 'list',
      description: "A project's tasks",
      params: { ...page, properties: { ...page.properties, project_id: { type: 'integer' } }, required: ['project_id'] },
      record,
      meta,
      request: { method: 'GET', path: '/projects/{project_id}/tasks' },
      response,
      paginated: true,
    }),
  ],
});

async function main(): Promise<void> {
  const upstream = await RestUpstream.start({
    items: ITEMS,
    projects: PROJECTS,
    tasksPerProject: TASKS_PER_PROJECT,
    auth: { kind: 'api_key', header: 'X-Api-Key', key: KEY },
    recordRequests: false,
  });
  const expected = 2 * ITEMS + PROJECTS * (1 + TASKS_PER_PROJECT);
  const manifest = loadManifest(MANIFEST, { name: 'bench-rest' });
  const config = { base_url: upstream.url, api_key: KEY, start_date: new Date(EPOCH_MS).toISOString(), end_date: END };

  const readManifest = async () => {
    let records = 0;
    for (const stream of ['items', 'tasks', 'projects', 'recent_items']) {
      for await (const message of readStream(manifest, stream, { config })) if (message.type === 'record') records++;
    }
    return records;
  };

  const runtime = await createRuntime({ builtins: false });
  runtime.registerConnector(native);
  const client = runtime.connector('bench-rest', { credentials: { token: KEY }, base_url: `${upstream.url}/api` });
  const readNative = async () => {
    let records = 0;
    const list = (entity: string, params: Record<string, unknown> = {}) => client.paginate({ entity, action: 'list', params: { limit: PAGE, ...params } });
    for await (const _ of list('items')) records++;
    const projects: Array<{ id: number }> = [];
    for await (const project of list('projects')) projects.push(project as { id: number });
    for (const project of projects) for await (const _ of list('tasks', { project_id: project.id })) records++;
    records += projects.length;
    for (let from = EPOCH_MS; from < Date.parse(END); from += WINDOW_DAYS * DAY_MS) {
      const window = {
        updated_after: new Date(from).toISOString(),
        updated_before: new Date(Math.min(from + WINDOW_DAYS * DAY_MS, Date.parse(END))).toISOString(),
      };
      for await (const _ of list('items', window)) records++;
    }
    return records;
  };

  // Both must read everything, or the comparison means nothing.
  for (const [name, read] of [
    ['manifest', readManifest],
    ['native', readNative],
  ] as const) {
    const records = await read();
    if (records < expected) throw new Error(`${name} read ${records} records, expected at least ${expected}`);
    console.log(`${name}: ${records} records read (check)`);
  }
  const rounds = Number(process.env.BENCH_MANIFEST_ROUNDS ?? 5);
  const timings = await interleave({ manifest: readManifest, native: readNative }, { rounds, warmup: 1 });
  const rate = (ms: number[]) => expected / (quantile(ms, 0.5) / 1000);
  const manifestRate = rate(timings.manifest);
  const nativeRate = rate(timings.native);
  console.log(`records per read: ${expected} (items ${ITEMS}, tasks ${PROJECTS * TASKS_PER_PROJECT}, projects ${PROJECTS}, incremental ${ITEMS})`);
  // Each round's times too: on a shared machine a median hides how much the load moved between rounds.
  console.log(`round_ms manifest=${timings.manifest.map(Math.round).join(',')} native=${timings.native.map(Math.round).join(',')}`);
  console.log(`manifest_records_per_s=${Math.round(manifestRate)} (median of ${rounds})`);
  console.log(`native_records_per_s=${Math.round(nativeRate)} (median of ${rounds})`);
  console.log(`peak_rss_mb=${Math.round(process.resourceUsage().maxRSS / 1024)}`);
  // The two reads of a round ran back to back, under much the same load: the median of their ratios moves less than the ratio of medians.
  const paired = timings.native.map((nativeMs, round) => nativeMs / timings.manifest[round]!);
  console.log(`paired_manifest_over_native=${quantile(paired, 0.5).toFixed(2)} (median of the rounds' own ratios)`);
  console.log(`manifest_over_native=${(manifestRate / nativeRate).toFixed(2)}`);
  await upstream.close();
}

await main();

/**
 * The components of Airbyte's declarative manifests that Plugboard runs, as data: for each type, what
 * it is (its kind: where it may stand), the fields it must have, the fields that hold other components,
 * the plain fields the interpreter reads and what they mean. The loader checks manifests against it; the
 * interpreter runs exactly these; documentation can list it as it is.
 */

/** Where a component may stand: every component field of the table accepts components of some kinds. */
export type ComponentKind =
  | 'source'
  | 'spec'
  | 'check'
  | 'concurrency_level'
  | 'stream'
  | 'schema_loader'
  | 'retriever'
  | 'requester'
  | 'request_option'
  | 'request_path'
  | 'record_selector'
  | 'record_extractor'
  | 'record_filter'
  | 'decoder'
  | 'paginator'
  | 'pagination_strategy'
  | 'partition_router'
  | 'parent_stream_config'
  | 'incremental_sync'
  | 'min_max_datetime'
  | 'transformation'
  | 'added_field'
  | 'error_handler'
  | 'response_filter'
  | 'backoff_strategy'
  | 'authenticator'
  | 'session_token_request_authenticator';

/** How a component field holds its components. */
export type ComponentSlotShape = 'one' | 'list' | 'one_or_list' | 'map';

export interface ComponentSlot {
  kinds: readonly ComponentKind[];
  shape: ComponentSlotShape;
  /** A template string may stand instead of a component (a DatetimeBasedCursor's `start_datetime`). */
  orTemplate?: boolean;
  /** These strings may stand instead of a component (RecordSelector `schema_normalization`: `Default`, `None`). */
  orValues?: readonly string[];
}

export interface SupportedComponent {
  kind: ComponentKind;
  /** Fields it must have (as Airbyte's schema says; `$parameters` may fill them). */
  required: readonly string[];
  /** Fields that hold components, and which. */
  components: Readonly<Record<string, ComponentSlot>>;
  /** Plain fields the interpreter reads, with what they mean. */
  fields: Readonly<Record<string, string>>;
  /** Fields of Airbyte's schema that Plugboard does not run: a manifest that gives one (non-empty) does not load. */
  unsupportedFields?: Readonly<Record<string, string>>;
  /** The shorter name manifests write for it (`ApiKey`, `Bearer`): mapped to this type when loading. */
  shortName?: string;
  /** What else to know. */
  note?: string;
}

const one = (...kinds: ComponentKind[]): ComponentSlot => ({ kinds, shape: 'one' });
const list = (...kinds: ComponentKind[]): ComponentSlot => ({ kinds, shape: 'list' });
const oneOrList = (...kinds: ComponentKind[]): ComponentSlot => ({ kinds, shape: 'one_or_list' });

const DECODER = { decoder: one('decoder') } as const;

export const SUPPORTED_COMPONENTS = {
  DeclarativeSource: {
    kind: 'source',
    // `version` is required too; the version check reports it (missing, or outside the versions read).
    required: ['check', 'streams', 'spec'],
    components: { check: one('check'), streams: list('stream'), spec: one('spec'), concurrency_level: one('concurrency_level') },
    fields: {
      version: 'the CDK version the manifest was written for (0.29.0 up to 7.x)',
      schemas: 'named record schemas, referenced from streams',
      definitions: 'reusable fragments, copied in where referenced',
      description: 'what the source is (documentation only)',
      metadata: "the Connector Builder's own data (no behaviour)",
      max_concurrent_async_job_count: 'for asynchronous retrievers only (no behaviour here)',
    },
    unsupportedFields: {
      dynamic_streams: 'DynamicDeclarativeStream (streams generated at run time)',
      api_budget: 'HTTPAPIBudget (client-side rate limit policies)',
      stream_groups: 'StreamGroup (streams that may not be read at the same time)',
    },
    note: '`type` may be omitted (the CDK adds it); `spec` is required, as a manifest-only source has no other place for it; no other top-level field is allowed',
  },
  Spec: {
    kind: 'spec',
    required: ['connection_specification'],
    components: {},
    fields: {
      connection_specification: 'the JSON Schema of the configuration; `airbyte_secret: true` marks secrets',
      documentation_url: 'where the source is documented',
      advanced_auth: "the OAuth flow's description for UIs",
    },
    unsupportedFields: { config_normalization_rules: 'config migrations, transformations and validations' },
  },
  CheckStream: {
    kind: 'check',
    required: ['stream_names'],
    components: {},
    fields: { stream_names: 'streams read (first page) to check the credentials; each must be a stream of the manifest' },
    unsupportedFields: { dynamic_streams_check_configs: 'DynamicStreamCheckConfig (checks of dynamic streams)' },
  },
  ConcurrencyLevel: {
    kind: 'concurrency_level',
    required: ['default_concurrency'],
    components: {},
    fields: { default_concurrency: 'how many requests the CDK runs at once', max_concurrency: 'its upper bound' },
    note: 'a hint: reading one request at a time honours it',
  },
  DeclarativeStream: {
    kind: 'stream',
    required: ['name', 'retriever'],
    components: {
      retriever: one('retriever'),
      schema_loader: oneOrList('schema_loader'),
      incremental_sync: one('incremental_sync'),
      transformations: list('transformation'),
    },
    fields: {
      name: 'the stream name (may come from `$parameters`)',
      primary_key: 'a field, a list of fields, or a list of paths (may come from `$parameters`)',
    },
    unsupportedFields: {
      state_migrations: 'LegacyToPerPartitionStateMigration (state migrations)',
      file_uploader: 'FileUploader (file transfer)',
    },
    note: 'without `schema_loader` the schema is empty, as the CDK finds no schema file in a manifest-only source',
  },
  InlineSchemaLoader: {
    kind: 'schema_loader',
    required: [],
    components: {},
    fields: { schema: 'the JSON Schema of the records (usually `$ref: "#/schemas/<name>"`)' },
  },
  JsonFileSchemaLoader: {
    kind: 'schema_loader',
    required: [],
    components: {},
    fields: { file_path: 'the schema file; only its name is used, to find the schema in the manifest' },
    note: 'only when the schema is in the manifest: `schemas.<file name without .json>`, else `schemas.<stream name>`; loaded as the InlineSchemaLoader of that schema',
  },
  SimpleRetriever: {
    kind: 'retriever',
    required: ['requester', 'record_selector'],
    components: {
      requester: one('requester'),
      record_selector: one('record_selector'),
      paginator: one('paginator'),
      partition_router: oneOrList('partition_router'),
      ...DECODER,
    },
    fields: { ignore_stream_slicer_parameters_on_paginated_requests: "drop the slicers' request options on pages after the first" },
    unsupportedFields: { pagination_reset: 'PaginationReset (restarting pagination)' },
    note: 'a list of partition routers is their cartesian product',
  },
  HttpRequester: {
    kind: 'requester',
    required: [],
    components: { authenticator: one('authenticator'), error_handler: one('error_handler') },
    fields: {
      url_base: 'the API root (templated)',
      url: 'the whole URL, instead of url_base and path',
      path: 'joined to url_base (templated); a RequestPath page token replaces it',
      http_method: 'GET (default) or POST',
      request_parameters: 'query parameters (templated values)',
      request_headers: 'headers (templated values)',
      request_body_data: 'a form body (templated)',
      request_body_json: 'a JSON body (templated)',
      use_cache: "the CDK's response cache: no effect on what is read",
    },
    unsupportedFields: {
      request_body: 'RequestBody… components (typed request bodies)',
      query_properties: 'QueryProperties (properties requested in chunks)',
      fetch_properties_from_endpoint: 'PropertiesFromEndpoint',
    },
    note: 'needs `url_base` or `url`',
  },
  RequestOption: {
    kind: 'request_option',
    required: ['inject_into'],
    components: {},
    fields: {
      inject_into: 'request_parameter, header, body_data or body_json',
      field_name: 'the name to inject under (templated)',
      field_path: 'body_json only: a nested place',
    },
  },
  RequestPath: {
    kind: 'request_path',
    required: [],
    components: {},
    fields: {},
    note: 'as a page token option: the token (a URL or a path) is the next request path',
  },
  RecordSelector: {
    kind: 'record_selector',
    required: ['extractor'],
    components: {
      extractor: one('record_extractor'),
      record_filter: one('record_filter'),
      schema_normalization: { kinds: [], shape: 'one', orValues: ['Default', 'None'] },
    },
    fields: {
      schema_normalization: "`Default`: cast record values to the schema's types; `None`: leave them",
      transform_before_filtering: 'apply the transformations before the filter',
    },
  },
  DpathExtractor: {
    kind: 'record_extractor',
    required: ['field_path'],
    components: { ...DECODER },
    fields: { field_path: 'the path of the records in the body (`[]`: the body; `*`: every key or index)' },
    unsupportedFields: { record_expander: 'RecordExpander' },
  },
  RecordFilter: {
    kind: 'record_filter',
    required: [],
    components: {},
    fields: { condition: 'a boolean template per record: keep it when true' },
  },
  JsonDecoder: { kind: 'decoder', required: [], components: {}, fields: {}, note: 'JSON bodies (the default)' },
  NoPagination: { kind: 'paginator', required: [], components: {}, fields: {} },
  DefaultPaginator: {
    kind: 'paginator',
    required: ['pagination_strategy'],
    components: {
      pagination_strategy: one('pagination_strategy'),
      page_size_option: one('request_option'),
      page_token_option: one('request_option', 'request_path'),
      ...DECODER,
    },
    fields: {},
  },
  CursorPagination: {
    kind: 'pagination_strategy',
    required: ['cursor_value'],
    components: { ...DECODER },
    fields: {
      cursor_value: 'the next token (from response, headers, last_record, last_page_size)',
      stop_condition: 'a boolean template: no further page when true',
      page_size: 'the page size (for page_size_option)',
    },
  },
  OffsetIncrement: {
    kind: 'pagination_strategy',
    required: [],
    components: {},
    fields: { page_size: 'records per page; a shorter page is the last', inject_on_first_request: 'send offset 0 on the first request' },
  },
  PageIncrement: {
    kind: 'pagination_strategy',
    required: [],
    components: {},
    fields: {
      page_size: 'records per page; a shorter page is the last',
      start_from_page: 'the first page number (default 0)',
      inject_on_first_request: 'send the first page number on the first request',
    },
  },
  ListPartitionRouter: {
    kind: 'partition_router',
    required: ['cursor_field', 'values'],
    components: { request_option: one('request_option') },
    fields: { cursor_field: 'the partition key', values: 'the values (a list or a template giving one)' },
  },
  SubstreamPartitionRouter: {
    kind: 'partition_router',
    required: ['parent_stream_configs'],
    components: { parent_stream_configs: list('parent_stream_config') },
    fields: {},
  },
  ParentStreamConfig: {
    kind: 'parent_stream_config',
    required: ['stream', 'parent_key', 'partition_field'],
    components: { stream: one('stream'), request_option: one('request_option') },
    fields: {
      parent_key: 'the value in each parent record (a `/` path)',
      partition_field: 'the partition key it becomes',
      incremental_dependency: 'read the parent incrementally, its state kept in the child state',
      extra_fields: 'parent record paths copied into the slice',
      lazy_read_pointer: 'a path of child records embedded in the parent record',
    },
  },
  CartesianProductStreamSlicer: {
    kind: 'partition_router',
    required: ['stream_slicers'],
    components: { stream_slicers: list('partition_router') },
    fields: {},
    note: 'the older spelling of a list of partition routers',
  },
  DatetimeBasedCursor: {
    kind: 'incremental_sync',
    required: ['cursor_field', 'datetime_format', 'start_datetime'],
    components: {
      start_datetime: { kinds: ['min_max_datetime'], shape: 'one', orTemplate: true },
      end_datetime: { kinds: ['min_max_datetime'], shape: 'one', orTemplate: true },
      start_time_option: one('request_option'),
      end_time_option: one('request_option'),
    },
    fields: {
      cursor_field: 'the record field holding the cursor (templated)',
      datetime_format: 'format of slices, state and request values',
      cursor_datetime_formats: 'formats tried to parse record values and state',
      step: 'slice length (ISO 8601 duration); with cursor_granularity',
      cursor_granularity: 'the smallest unit of the cursor; with step',
      lookback_window: 'how far before the state to start again',
      partition_field_start: 'slice key of the start (default start_time)',
      partition_field_end: 'slice key of the end (default end_time)',
      is_data_feed: 'records newest first: stop paginating at the first one older than the state',
      is_client_side_incremental: 'filter records by the cursor client-side',
      is_compare_strictly: 'no slice when start equals end',
      global_substream_cursor: 'one cursor for all partitions',
      clamping: 'align slices to DAY, WEEK or MONTH',
    },
  },
  MinMaxDatetime: {
    kind: 'min_max_datetime',
    required: ['datetime'],
    components: {},
    fields: {
      datetime: 'the datetime (templated)',
      datetime_format: "its format (default: the cursor's)",
      min_datetime: 'a lower bound',
      max_datetime: 'an upper bound',
    },
  },
  AddFields: {
    kind: 'transformation',
    required: ['fields'],
    components: { fields: list('added_field') },
    fields: { condition: 'a boolean template: add only when true' },
  },
  AddedFieldDefinition: {
    kind: 'added_field',
    required: ['path', 'value'],
    components: {},
    fields: { path: 'where in the record', value: 'the value (templated with record, config, stream_slice)', value_type: 'string, number, integer or boolean' },
  },
  RemoveFields: {
    kind: 'transformation',
    required: ['field_pointers'],
    components: {},
    fields: { field_pointers: 'paths to remove (`*`, `**` globs)', condition: 'a boolean template per match (`property`)' },
  },
  KeysToLower: { kind: 'transformation', required: [], components: {}, fields: {}, note: 'lower-cases the keys of each record' },
  KeysToSnakeCase: { kind: 'transformation', required: [], components: {}, fields: {}, note: 'snake_cases the keys of each record' },
  KeysReplace: {
    kind: 'transformation',
    required: ['old', 'new'],
    components: {},
    fields: { old: 'the text to replace in keys (templated)', new: 'its replacement (templated)' },
  },
  DefaultErrorHandler: {
    kind: 'error_handler',
    required: [],
    components: { response_filters: list('response_filter'), backoff_strategies: list('backoff_strategy') },
    fields: { max_retries: 'retries after the first attempt (default 5)' },
  },
  CompositeErrorHandler: {
    kind: 'error_handler',
    required: ['error_handlers'],
    components: { error_handlers: list('error_handler') },
    fields: {},
    note: 'asks its handlers in order',
  },
  HttpResponseFilter: {
    kind: 'response_filter',
    required: [],
    components: {},
    fields: {
      action: 'SUCCESS, FAIL, RETRY, IGNORE, RATE_LIMITED (also RESET_PAGINATION, REFRESH_TOKEN_THEN_RETRY)',
      failure_type: 'system_error, config_error or transient_error (with FAIL)',
      http_codes: 'statuses it matches',
      error_message_contains: 'text of the error message it matches',
      predicate: 'a boolean template on response and headers',
      error_message: 'the message to report (templated)',
    },
  },
  ExponentialBackoffStrategy: {
    kind: 'backoff_strategy',
    required: [],
    components: {},
    fields: { factor: 'seconds: factor × 2^attempt (default 5)', jitter_range_in_seconds: 'random jitter' },
  },
  ConstantBackoffStrategy: {
    kind: 'backoff_strategy',
    required: ['backoff_time_in_seconds'],
    components: {},
    fields: { backoff_time_in_seconds: 'the wait', jitter_range_in_seconds: 'random jitter' },
  },
  WaitTimeFromHeader: {
    kind: 'backoff_strategy',
    required: ['header'],
    components: {},
    fields: { header: 'the header holding seconds to wait', regex: 'the part of it to read', max_waiting_time_in_seconds: 'fail above this wait' },
  },
  WaitUntilTimeFromHeader: {
    kind: 'backoff_strategy',
    required: ['header'],
    components: {},
    fields: { header: 'the header holding the epoch second to wait until', min_wait: 'the least wait', regex: 'the part of it to read' },
  },
  ApiKeyAuthenticator: {
    kind: 'authenticator',
    required: [],
    components: { inject_into: one('request_option') },
    fields: { api_token: 'the token (templated)', header: 'deprecated: the header to send it in (instead of inject_into)' },
  },
  BearerAuthenticator: {
    kind: 'authenticator',
    required: ['api_token'],
    components: {},
    fields: { api_token: 'sent as `Authorization: Bearer <token>`' },
  },
  BasicHttpAuthenticator: {
    kind: 'authenticator',
    required: ['username'],
    components: {},
    fields: { username: 'the user (templated)', password: 'the password (templated, default empty)' },
  },
  OAuthAuthenticator: {
    kind: 'authenticator',
    required: [],
    components: {},
    fields: {
      token_refresh_endpoint: 'the token endpoint',
      client_id: 'the client id',
      client_secret: 'the client secret',
      refresh_token: 'the refresh token',
      grant_type: 'refresh_token (default), client_credentials or password',
      scopes: 'scopes sent with the refresh',
      access_token_value: 'a static access token (no refresh endpoint)',
      refresh_request_body: 'extra body fields of the refresh',
      refresh_request_headers: 'headers of the refresh',
      send_refresh_request_as_query_params: 'send the refresh fields as the query',
      access_token_name: 'the access token key of the answer (default access_token)',
      expires_in_name: 'the expiry key of the answer (default expires_in)',
      token_expiry_date: 'the initial expiry',
      token_expiry_date_format: 'the expiry is a date in this format, not seconds',
      refresh_token_updater: 'single-use refresh tokens: the new one is written back into the config',
      client_id_name: 'renames the client_id field of the refresh',
      client_secret_name: 'renames the client_secret field',
      refresh_token_name: 'renames the refresh_token field',
      grant_type_name: 'renames the grant_type field',
    },
    unsupportedFields: { profile_assertion: 'JwtAuthenticator (a JWT profile assertion grant)' },
  },
  SessionTokenAuthenticator: {
    kind: 'authenticator',
    required: ['login_requester', 'session_token_path', 'request_authentication'],
    components: { login_requester: one('requester'), request_authentication: one('session_token_request_authenticator'), ...DECODER },
    fields: {
      session_token_path: 'the path of the token in the login answer',
      expiration_duration: 'how long a token lasts (without it: a login per request)',
    },
  },
  SessionTokenRequestApiKeyAuthenticator: {
    kind: 'session_token_request_authenticator',
    required: ['inject_into'],
    components: { inject_into: one('request_option') },
    fields: { api_token: 'the value to inject (default `{{ session_token }}`)' },
    shortName: 'ApiKey',
  },
  SessionTokenRequestBearerAuthenticator: {
    kind: 'session_token_request_authenticator',
    required: [],
    components: {},
    fields: {},
    shortName: 'Bearer',
    note: 'sends `Authorization: Bearer <session token>`',
  },
  LegacySessionTokenAuthenticator: {
    kind: 'authenticator',
    required: ['header', 'login_url', 'session_token_response_key', 'validate_session_url'],
    components: {},
    fields: {
      header: 'the header carrying the session token',
      login_url: 'where to log in (username and password)',
      session_token_response_key: 'the token key of the login answer',
      validate_session_url: 'where a given session_token is checked',
      session_token: 'a session token given in the config',
      username: 'the user',
      password: 'the password',
    },
  },
  SelectiveAuthenticator: {
    kind: 'authenticator',
    required: ['authenticator_selection_path', 'authenticators'],
    components: { authenticators: { kinds: ['authenticator'], shape: 'map' } },
    fields: { authenticator_selection_path: 'the config path whose value names the authenticator to use' },
  },
  NoAuth: { kind: 'authenticator', required: [], components: {}, fields: {} },
} as const satisfies Record<string, SupportedComponent>;

export type SupportedComponentType = keyof typeof SUPPORTED_COMPONENTS;

/** The table with its entries typed as SupportedComponent, for code that walks it. */
export const SUPPORTED: Readonly<Record<string, SupportedComponent>> = SUPPORTED_COMPONENTS;

export function isSupportedType(type: string): type is SupportedComponentType {
  return Object.hasOwn(SUPPORTED_COMPONENTS, type);
}

/** Short names manifests write (`ApiKey`) → the component type they stand for. */
export const SHORT_NAMES: Readonly<Record<string, SupportedComponentType>> = Object.fromEntries(
  Object.entries(SUPPORTED).flatMap(([type, entry]) => (entry.shortName === undefined ? [] : [[entry.shortName, type as SupportedComponentType]])),
);

/** How problems name what a field expects. */
export const KIND_NAMES: Readonly<Record<ComponentKind, string>> = {
  source: 'a DeclarativeSource',
  spec: 'a Spec',
  check: 'a check',
  concurrency_level: 'a ConcurrencyLevel',
  stream: 'a stream',
  schema_loader: 'a schema loader',
  retriever: 'a retriever',
  requester: 'a requester',
  request_option: 'a RequestOption',
  request_path: 'a RequestPath',
  record_selector: 'a record selector',
  record_extractor: 'a record extractor',
  record_filter: 'a record filter',
  decoder: 'a decoder',
  paginator: 'a paginator',
  pagination_strategy: 'a pagination strategy',
  partition_router: 'a partition router',
  parent_stream_config: 'a ParentStreamConfig',
  incremental_sync: 'an incremental sync cursor',
  min_max_datetime: 'a MinMaxDatetime',
  transformation: 'a transformation',
  added_field: 'an AddedFieldDefinition',
  error_handler: 'an error handler',
  response_filter: 'an HttpResponseFilter',
  backoff_strategy: 'a backoff strategy',
  authenticator: 'an authenticator',
  session_token_request_authenticator: 'a session token request authenticator (ApiKey or Bearer)',
};

/** The supported types of some kinds, as problems list them. */
export function typesOfKinds(kinds: readonly ComponentKind[]): string[] {
  return Object.entries(SUPPORTED)
    .filter(([, entry]) => kinds.includes(entry.kind))
    .map(([type, entry]) => entry.shortName ?? type);
}

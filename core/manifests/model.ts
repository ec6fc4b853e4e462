/**
 * The model of a loaded Airbyte declarative manifest: the components Plugboard runs, as they are once
 * loaded (references resolved, `$parameters` propagated, default types filled in, short names mapped).
 * Field names are the CDK's. Values written as Jinja templates stay strings (`Template`) for the
 * interpreter to evaluate; `Interpolated<T>` is a field that takes either.
 *
 * A component keeps every field the manifest gives it (the CDK tolerates extra fields, and copies
 * propagated parameters onto components as fields); these types name the ones that matter.
 */
import type { JsonSchema } from '../sdk/index.ts';

/** A string that may hold Jinja (`{{ config['api_key'] }}`), evaluated with the interpolation context. */
export type Template = string;
/** A value given literally or as a template string. */
export type Interpolated<T> = T | Template;
/** ISO 8601 duration (`P1D`, `PT0.000001S`), possibly templated. */
export type Duration = Template;

/** What every component may carry: the parameters propagated to it, `parameters` in its templates. */
export interface ComponentBase {
  $parameters?: Record<string, unknown>;
}

/** `id`, `[id, date]` (a composite key of top-level fields), or `[[a, b], [c]]` (paths). */
export type PrimaryKey = string | string[] | string[][];

export interface DeclarativeSource {
  type: 'DeclarativeSource';
  /** The CDK version the manifest was written for (`6.44.0`). */
  version: string;
  check: CheckStream;
  streams: DeclarativeStream[];
  spec: Spec;
  /** Named record schemas, usually referenced from streams' InlineSchemaLoader (`$ref: "#/schemas/users"`). */
  schemas?: Record<string, JsonSchema>;
  concurrency_level?: ConcurrencyLevel;
  description?: string;
  metadata?: Record<string, unknown>;
}

export interface Spec extends ComponentBase {
  type: 'Spec';
  /** The JSON Schema of the source's configuration (`config` in templates). */
  connection_specification: JsonSchema;
  documentation_url?: string;
  /** The OAuth flow description for UIs; no behaviour. */
  advanced_auth?: Record<string, unknown>;
}

export interface CheckStream extends ComponentBase {
  type: 'CheckStream';
  /** Streams whose first page proves the credentials work. */
  stream_names: string[];
}

/** A hint on how many requests may run at once; reading sequentially honours it. */
export interface ConcurrencyLevel extends ComponentBase {
  type: 'ConcurrencyLevel';
  default_concurrency: Interpolated<number>;
  max_concurrency?: number;
}

export interface DeclarativeStream extends ComponentBase {
  type: 'DeclarativeStream';
  name: string;
  primary_key?: PrimaryKey;
  retriever: SimpleRetriever;
  /** Absent: the stream's schema is empty (the CDK's DefaultSchemaLoader finds no file in a manifest-only source). */
  schema_loader?: SchemaLoader | SchemaLoader[];
  incremental_sync?: DatetimeBasedCursor;
  transformations?: Transformation[];
  /** Only an empty list is accepted (state migrations are not supported). */
  state_migrations?: [];
}

/**
 * A JsonFileSchemaLoader is accepted only when its schema is in the manifest's `schemas` section; the
 * loader turns it into the InlineSchemaLoader of that schema, so a loaded stream only has inline schemas.
 */
export interface InlineSchemaLoader extends ComponentBase {
  type: 'InlineSchemaLoader';
  schema?: JsonSchema;
}
export type SchemaLoader = InlineSchemaLoader;

export interface SimpleRetriever extends ComponentBase {
  type: 'SimpleRetriever';
  requester: HttpRequester;
  record_selector: RecordSelector;
  /** Default (when absent): NoPagination. */
  paginator?: Paginator;
  /** A list is the cartesian product of its routers (as a CartesianProductStreamSlicer). */
  partition_router?: PartitionRouter | PartitionRouter[];
  decoder?: JsonDecoder;
  /** Drop the partition router's and cursor's request options on pages after the first. */
  ignore_stream_slicer_parameters_on_paginated_requests?: boolean;
}

export type HttpMethod = 'GET' | 'POST';
export type RequestValues = Record<string, Interpolated<unknown>> | Template;

export interface HttpRequester extends ComponentBase {
  type: 'HttpRequester';
  url_base?: Template;
  /** Newer CDKs: the whole URL, instead of url_base + path. */
  url?: Template;
  path?: Template;
  /** Default GET. */
  http_method?: HttpMethod;
  authenticator?: Authenticator;
  /** Default: a DefaultErrorHandler with no filters (the CDK's default status mapping). */
  error_handler?: ErrorHandler;
  request_parameters?: RequestValues;
  request_headers?: RequestValues;
  request_body_data?: RequestValues;
  request_body_json?: Record<string, unknown> | Template;
  /** A CDK request cache; no effect on what is read. */
  use_cache?: boolean;
}

export type InjectInto = 'request_parameter' | 'header' | 'body_data' | 'body_json';

export interface RequestOption extends ComponentBase {
  type: 'RequestOption';
  inject_into: InjectInto;
  field_name?: Template;
  /** body_json only: a nested field. */
  field_path?: Template[];
}

/** As a page token option: the token (a URL or path) becomes the next request's path. */
export interface RequestPath extends ComponentBase {
  type: 'RequestPath';
}

export interface RecordSelector extends ComponentBase {
  type: 'RecordSelector';
  extractor: DpathExtractor;
  record_filter?: RecordFilter;
  /** `Default`: cast record values to the stream schema's types; `None` (default): leave them. */
  schema_normalization?: 'Default' | 'None';
  transform_before_filtering?: boolean;
}

export interface DpathExtractor extends ComponentBase {
  type: 'DpathExtractor';
  /** `[]`: the whole body; segments may be templates or `*` (every key or index at that level). */
  field_path: Template[];
  decoder?: JsonDecoder;
}

export interface RecordFilter extends ComponentBase {
  type: 'RecordFilter';
  /** A boolean template per record (`{{ record['status'] != 'deleted' }}`). */
  condition?: Template;
}

export interface JsonDecoder extends ComponentBase {
  type: 'JsonDecoder';
}

export type Paginator = DefaultPaginator | NoPagination;

export interface NoPagination extends ComponentBase {
  type: 'NoPagination';
}

export interface DefaultPaginator extends ComponentBase {
  type: 'DefaultPaginator';
  pagination_strategy: PaginationStrategy;
  page_size_option?: RequestOption;
  page_token_option?: RequestOption | RequestPath;
  decoder?: JsonDecoder;
}

export type PaginationStrategy = CursorPagination | OffsetIncrement | PageIncrement;

export interface CursorPagination extends ComponentBase {
  type: 'CursorPagination';
  /** The next token, from `response`, `headers`, `last_record`, `last_page_size`. */
  cursor_value: Template;
  stop_condition?: Template;
  page_size?: Interpolated<number>;
  decoder?: JsonDecoder;
}

export interface OffsetIncrement extends ComponentBase {
  type: 'OffsetIncrement';
  page_size?: Interpolated<number>;
  inject_on_first_request?: boolean;
}

export interface PageIncrement extends ComponentBase {
  type: 'PageIncrement';
  page_size?: Interpolated<number>;
  /** Default 0. */
  start_from_page?: number;
  inject_on_first_request?: boolean;
}

export type PartitionRouter = ListPartitionRouter | SubstreamPartitionRouter | CartesianProductStreamSlicer;

export interface ListPartitionRouter extends ComponentBase {
  type: 'ListPartitionRouter';
  cursor_field: Template;
  /** A list, or a template evaluating to one. */
  values: Interpolated<unknown[]>;
  request_option?: RequestOption;
}

export interface SubstreamPartitionRouter extends ComponentBase {
  type: 'SubstreamPartitionRouter';
  parent_stream_configs: ParentStreamConfig[];
}

export interface ParentStreamConfig extends ComponentBase {
  type: 'ParentStreamConfig';
  /** The parent stream, in full (read first, one partition per parent record). */
  stream: DeclarativeStream;
  /** `/`-separated path of the value in a parent record. */
  parent_key: Template;
  partition_field: Template;
  request_option?: RequestOption;
  incremental_dependency?: boolean;
  /** Parent record paths copied into the slice's `extra_fields`. */
  extra_fields?: string[][];
  lazy_read_pointer?: Template[];
}

/** The older spelling of a list of partition routers. */
export interface CartesianProductStreamSlicer extends ComponentBase {
  type: 'CartesianProductStreamSlicer';
  stream_slicers: PartitionRouter[];
}

export interface DatetimeBasedCursor extends ComponentBase {
  type: 'DatetimeBasedCursor';
  cursor_field: Template;
  /** Format of slice values, state and request options (strftime, plus `%s`, `%ms`…). */
  datetime_format: string;
  /** Formats tried to parse record cursor values and state; `datetime_format` is the last fallback. */
  cursor_datetime_formats?: string[];
  start_datetime: Template | MinMaxDatetime;
  end_datetime?: Template | MinMaxDatetime;
  start_time_option?: RequestOption;
  end_time_option?: RequestOption;
  /** With `cursor_granularity`: both or neither. */
  step?: Duration;
  cursor_granularity?: Duration;
  lookback_window?: Duration;
  partition_field_start?: string;
  partition_field_end?: string;
  is_data_feed?: boolean;
  is_client_side_incremental?: boolean;
  is_compare_strictly?: boolean;
  global_substream_cursor?: boolean;
  /** Newer CDKs: align slices to DAY, WEEK or MONTH. */
  clamping?: Record<string, unknown>;
}

export interface MinMaxDatetime extends ComponentBase {
  type: 'MinMaxDatetime';
  datetime: Template;
  /** Default: the cursor's datetime_format. */
  datetime_format?: string;
  min_datetime?: Template;
  max_datetime?: Template;
}

export type Transformation = AddFields | RemoveFields | KeysToLower | KeysToSnakeCase | KeysReplace;

export interface AddFields extends ComponentBase {
  type: 'AddFields';
  fields: AddedFieldDefinition[];
  condition?: Template;
}

export interface AddedFieldDefinition extends ComponentBase {
  type: 'AddedFieldDefinition';
  path: string[];
  value: Template;
  value_type?: 'string' | 'number' | 'integer' | 'boolean';
}

export interface RemoveFields extends ComponentBase {
  type: 'RemoveFields';
  /** Paths; `*` and `**` glob. */
  field_pointers: string[][];
  condition?: Template;
}

export interface KeysToLower extends ComponentBase {
  type: 'KeysToLower';
}

export interface KeysToSnakeCase extends ComponentBase {
  type: 'KeysToSnakeCase';
}

export interface KeysReplace extends ComponentBase {
  type: 'KeysReplace';
  old: Template;
  new: Template;
}

export type ErrorHandler = DefaultErrorHandler | CompositeErrorHandler;

export interface DefaultErrorHandler extends ComponentBase {
  type: 'DefaultErrorHandler';
  response_filters?: HttpResponseFilter[];
  backoff_strategies?: BackoffStrategy[];
  /** Default 5 (the CDK also stops retrying after 600 seconds). */
  max_retries?: Interpolated<number>;
}

export interface CompositeErrorHandler extends ComponentBase {
  type: 'CompositeErrorHandler';
  error_handlers: ErrorHandler[];
}

export type ResponseAction = 'SUCCESS' | 'FAIL' | 'RETRY' | 'IGNORE' | 'RATE_LIMITED' | 'RESET_PAGINATION' | 'REFRESH_TOKEN_THEN_RETRY';

export interface HttpResponseFilter extends ComponentBase {
  type: 'HttpResponseFilter';
  action?: ResponseAction;
  failure_type?: 'system_error' | 'config_error' | 'transient_error';
  http_codes?: number[];
  error_message_contains?: string;
  predicate?: Template;
  error_message?: Template;
}

export type BackoffStrategy = ExponentialBackoffStrategy | ConstantBackoffStrategy | WaitTimeFromHeader | WaitUntilTimeFromHeader;

export interface ExponentialBackoffStrategy extends ComponentBase {
  type: 'ExponentialBackoffStrategy';
  /** Default 5: `factor * 2 ** attempt` seconds. */
  factor?: Interpolated<number>;
  jitter_range_in_seconds?: number;
}

export interface ConstantBackoffStrategy extends ComponentBase {
  type: 'ConstantBackoffStrategy';
  backoff_time_in_seconds: Interpolated<number>;
  jitter_range_in_seconds?: number;
}

export interface WaitTimeFromHeader extends ComponentBase {
  type: 'WaitTimeFromHeader';
  header: Template;
  regex?: string;
  max_waiting_time_in_seconds?: number;
}

export interface WaitUntilTimeFromHeader extends ComponentBase {
  type: 'WaitUntilTimeFromHeader';
  header: Template;
  min_wait?: Interpolated<number>;
  regex?: string;
}

export type Authenticator =
  | ApiKeyAuthenticator
  | BearerAuthenticator
  | BasicHttpAuthenticator
  | OAuthAuthenticator
  | SessionTokenAuthenticator
  | LegacySessionTokenAuthenticator
  | SelectiveAuthenticator
  | NoAuth;

export interface NoAuth extends ComponentBase {
  type: 'NoAuth';
}

export interface ApiKeyAuthenticator extends ComponentBase {
  type: 'ApiKeyAuthenticator';
  api_token?: Template;
  /** Deprecated: the header to send the token in (instead of `inject_into`). */
  header?: Template;
  inject_into?: RequestOption;
}

export interface BearerAuthenticator extends ComponentBase {
  type: 'BearerAuthenticator';
  api_token: Template;
}

export interface BasicHttpAuthenticator extends ComponentBase {
  type: 'BasicHttpAuthenticator';
  username: Template;
  /** Default "". */
  password?: Template;
}

export interface OAuthAuthenticator extends ComponentBase {
  type: 'OAuthAuthenticator';
  token_refresh_endpoint?: Template;
  client_id?: Template;
  client_secret?: Template;
  refresh_token?: Template;
  /** Default `refresh_token`; also `client_credentials`, `password`. */
  grant_type?: Template;
  client_id_name?: string;
  client_secret_name?: string;
  refresh_token_name?: string;
  grant_type_name?: string;
  access_token_name?: string;
  expires_in_name?: string;
  access_token_value?: Template;
  refresh_request_body?: Record<string, unknown>;
  refresh_request_headers?: Record<string, unknown>;
  send_refresh_request_as_query_params?: boolean;
  scopes?: string[];
  token_expiry_date?: Template;
  token_expiry_date_format?: string;
  /** Single-use refresh tokens: where the new refresh token (and access token, expiry) go in the config. */
  refresh_token_updater?: Record<string, unknown>;
  refresh_token_error_status_codes?: number[];
  refresh_token_error_key?: string;
  refresh_token_error_values?: string[];
}

export interface SessionTokenAuthenticator extends ComponentBase {
  type: 'SessionTokenAuthenticator';
  /** The login request, a full requester (its own URL, method, body and authenticator). */
  login_requester: HttpRequester;
  session_token_path: string[];
  /** Without it, the login is redone for every request. */
  expiration_duration?: Duration;
  request_authentication: SessionTokenRequestApiKeyAuthenticator | SessionTokenRequestBearerAuthenticator;
  decoder?: JsonDecoder;
}

/** Written `type: ApiKey` in manifests. */
export interface SessionTokenRequestApiKeyAuthenticator extends ComponentBase {
  type: 'SessionTokenRequestApiKeyAuthenticator';
  inject_into: RequestOption;
  /** Default `{{ session_token }}`. */
  api_token?: Template;
}

/** Written `type: Bearer` in manifests. */
export interface SessionTokenRequestBearerAuthenticator extends ComponentBase {
  type: 'SessionTokenRequestBearerAuthenticator';
}

export interface LegacySessionTokenAuthenticator extends ComponentBase {
  type: 'LegacySessionTokenAuthenticator';
  header: Template;
  login_url: Template;
  session_token_response_key: Template;
  validate_session_url: Template;
  session_token?: Template;
  username?: Template;
  password?: Template;
}

export interface SelectiveAuthenticator extends ComponentBase {
  type: 'SelectiveAuthenticator';
  /** Config keys whose value names the authenticator to use. */
  authenticator_selection_path: string[];
  authenticators: Record<string, Authenticator>;
}

/** Every component of the model. */
export type ManifestComponent =
  | DeclarativeSource
  | Spec
  | CheckStream
  | ConcurrencyLevel
  | DeclarativeStream
  | InlineSchemaLoader
  | SimpleRetriever
  | HttpRequester
  | RequestOption
  | RequestPath
  | RecordSelector
  | DpathExtractor
  | RecordFilter
  | JsonDecoder
  | Paginator
  | PaginationStrategy
  | PartitionRouter
  | ParentStreamConfig
  | DatetimeBasedCursor
  | MinMaxDatetime
  | Transformation
  | AddedFieldDefinition
  | ErrorHandler
  | HttpResponseFilter
  | BackoffStrategy
  | Authenticator
  | SessionTokenRequestApiKeyAuthenticator
  | SessionTokenRequestBearerAuthenticator;

/** The type names a loaded manifest's components have. */
export type ManifestComponentType = ManifestComponent['type'];

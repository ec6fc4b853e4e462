/** The execute request and its result envelope, the same in the in-process and hosted runtimes. */

export interface ExecuteRequest {
  entity: string;
  action: string;
  params?: Record<string, unknown>;
}

export interface ExecutionMetadata {
  connector_id: string;
  execution_time_ms: number;
}

export interface ExecuteResult<TResult = unknown, TMeta = Record<string, unknown>> {
  status: 'success';
  result: TResult;
  connector_metadata: TMeta;
  execution_metadata: ExecutionMetadata;
}

/** What a `download` action resolves to: the bytes as an async iterable, and what is known about them. */
export interface DownloadResult {
  /** 200, or 206 when a range was asked for and honoured. */
  status: number;
  content_type: string | null;
  content_length: number | null;
  /** `bytes <start>-<end>/<total>` on 206. */
  content_range: string | null;
  file_name: string | null;
  /** The content, chunk by chunk; iterate it once. Throws if the upstream transfer is cut short. */
  body: AsyncIterable<Uint8Array>;
}

/** Runs one `{entity, action, params}` on one connector instance, in-process or through a hosted server. */
export type ExecuteFunction = (request: ExecuteRequest) => Promise<ExecuteResult | DownloadResult>;

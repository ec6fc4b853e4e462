/** The execute envelope of DESIGN "Execute", shared by the in-process and hosted runtimes. */

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

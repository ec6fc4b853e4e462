import { performance } from 'node:perf_hooks';
import { BadRequestError, invalidField, PlugboardError, ValidationError } from '../errors.ts';
import type { CompiledConnector } from '../plugins/compiled-connector.ts';
import { toValidationIssues } from '../schema/validation-issues.ts';
import type { HttpTransport } from '../transport/http-transport.ts';
import { mapResponse } from './response-mapping.ts';
import type { DownloadResult, ExecuteRequest, ExecuteResult } from './types.ts';
import { executeDownload } from './execute-download.ts';

export interface ExecutionTarget {
  connector: CompiledConnector;
  transport: HttpTransport;
  /** Reported in `execution_metadata.connector_id`: the stored connector's id when hosted, the type id in-process. */
  connectorId: string;
  /** In-process instances call the third party themselves and have no context store to search. */
  mode: 'in-process' | 'hosted';
}

/** Runs one `{entity, action, params}`: resolve, validate, call upstream, map the response. */
export async function executeAction(target: ExecutionTarget, request: ExecuteRequest): Promise<ExecuteResult | DownloadResult> {
  const started = performance.now();
  const action = target.connector.resolve(request?.entity, request?.action);
  const { definition } = action;
  // Said before params are checked: no params would make a hosted-only action work in-process.
  if (definition.hostedOnly && target.mode === 'in-process') {
    throw new BadRequestError(
      `${definition.entity}.${definition.action} is available in hosted mode only: it searches the context store that the hosted server replicates into, which an in-process connector does not have.`,
      'hosted_mode_only',
    );
  }
  const params = request.params ?? {};
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw invalidField(['body', 'params'], 'value is not a valid object', 'type_error.dict');
  }
  if (!action.validateParams(params)) {
    throw new ValidationError(toValidationIssues(action.validateParams.errors ?? [], ['body', 'params']));
  }
  if (!definition.request) {
    // Hosted search reads the context store, which replication fills; this server has none yet.
    throw new PlugboardError(
      501,
      `${definition.entity}.${definition.action} needs the context store, which this server does not run yet`,
      'context_store_unavailable',
    );
  }
  if (definition.action === 'download') return executeDownload(target, action, params);
  const body = await target.transport.requestJson({
    call: definition.request,
    params,
    idempotent: definition.idempotent ?? definition.request.method === 'GET',
  });
  const { result, meta } = mapResponse(action, body);
  return {
    status: 'success',
    result,
    connector_metadata: meta,
    execution_metadata: { connector_id: target.connectorId, execution_time_ms: Math.round((performance.now() - started) * 1000) / 1000 },
  };
}

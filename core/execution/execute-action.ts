import { performance } from 'node:perf_hooks';
import { BadRequestError, invalidField, PlugboardError, ValidationError } from '../errors.ts';
import type { CompiledAction, CompiledConnector } from '../plugins/compiled-connector.ts';
import { toValidationIssues } from '../schema/validation-issues.ts';
import { isObject } from '../plugins/value-shapes.ts';
import type { UpstreamClient } from '../sdk/index.ts';
import type { HttpTransport } from '../transport/http-transport.ts';
import { executeDownload } from './execute-download.ts';
import { checkRecords, type RecordValidation } from './record-validation.ts';
import { mapResponse } from './response-mapping.ts';
import type { DownloadResult, ExecuteRequest, ExecuteResult } from './types.ts';
import type { ContextStore } from '../hosted/context-store/context-store.ts';
import { planSearch } from '../hosted/context-store/search-query.ts';

export interface ExecutionTarget {
  connector: CompiledConnector;
  /** Absent for a connector that reads by other means (`runAction`). */
  transport?: HttpTransport;
  /** What an action's hooks call upstream with: the same transport, made once per instance. */
  upstream: UpstreamClient;
  /** Serves every action of an instance that does not call upstream by its declarations (an Airbyte manifest's reads). */
  runAction?: (action: CompiledAction, params: Params) => Promise<unknown>;
  /** Reported in `execution_metadata.connector_id`: the stored connector's id when hosted, the type id in-process. */
  connectorId: string;
  /** In-process instances call the third party themselves; only given a local context store can they search. */
  mode: 'in-process' | 'hosted';
  /** Where search actions read: the hosted context store, or an in-process instance's local one (opened at first use). */
  contextStore?: () => Promise<ContextStore>;
  /** Whether mapped records are checked against the record schema (the runtime's `validateRecords`). */
  validateRecords: RecordValidation;
}

type Params = Record<string, unknown>;

/** Runs one `{entity, action, params}`: resolve, validate, call upstream (or the action's `run` hook), map the response. */
export async function executeAction(target: ExecutionTarget, request: ExecuteRequest): Promise<ExecuteResult | DownloadResult> {
  const started = performance.now();
  const action = target.connector.resolve(request?.entity, request?.action);
  const { definition } = action;
  // Said before params are checked: no params would make a hosted-only action work in-process.
  if (definition.hostedOnly && !target.contextStore) {
    throw new BadRequestError(
      `${definition.entity}.${definition.action} is available in hosted mode only: it searches the context store that the hosted server replicates into, which this in-process connector does not have (give it one: context_store: {path}).`,
      'hosted_mode_only',
    );
  }
  const given = request.params ?? {};
  if (!isObject(given)) {
    throw invalidField(['body', 'params'], 'value is not a valid object', 'type_error.dict');
  }
  if (!action.validateParams(given)) {
    throw new ValidationError(toValidationIssues(action.validateParams.errors ?? [], ['body', 'params']));
  }
  const params = prepareParams(action, given);
  if (definition.action === 'download') return executeDownload(target, action, params);
  if (action.catalog && target.contextStore) {
    const plan = planSearch(action.catalog, params);
    const result = await (await target.contextStore()).search(target.connectorId, action.catalog, plan);
    return envelope(target, result, {}, started);
  }
  const body = await upstreamBody(target, action, params);
  const { hooks } = definition;
  const { result, meta } = mapResponse(action, hooks?.transformResponse ? hooks.transformResponse(body, params) : body);
  checkRecords(action, result, target.validateRecords);
  return envelope(target, result, meta, started);
}

function envelope(target: ExecutionTarget, result: unknown, meta: Record<string, unknown>, started: number): ExecuteResult {
  return {
    status: 'success',
    result,
    connector_metadata: meta,
    execution_metadata: { connector_id: target.connectorId, execution_time_ms: Math.round((performance.now() - started) * 1000) / 1000 },
  };
}

/** The validated params as the action's `prepareParams` hook rewrites them (the caller's object is never changed). */
function prepareParams(action: CompiledAction, params: Params): Params {
  const { hooks } = action.definition;
  if (!hooks?.prepareParams) return params;
  const prepared = hooks.prepareParams({ ...params });
  if (!isObject(prepared)) {
    throw new Error(`${action.definition.entity}.${action.definition.action}: hooks.prepareParams must return a params object`);
  }
  return prepared;
}

/** The upstream's answer: from the action's `run` hook, or its declared call. */
async function upstreamBody(target: ExecutionTarget, action: CompiledAction, params: Params): Promise<unknown> {
  const { definition } = action;
  const { request: call, hooks } = definition;
  if (target.runAction) return target.runAction(action, params);
  if (hooks?.run) return hooks.run(params, target.upstream);
  if (call && target.transport) return target.transport.requestJson({ call, params, idempotent: definition.idempotent ?? call.method === 'GET' });
  throw new PlugboardError(501, `${definition.entity}.${definition.action} has no upstream call`, 'not_implemented');
}

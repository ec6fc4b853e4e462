import { fileNameFromDisposition } from '../transport/content-disposition.ts';
import type { CompiledAction } from '../plugins/compiled-connector.ts';
import type { ExecutionTarget } from './execute-action.ts';
import type { DownloadResult } from './types.ts';

/**
 * Runs a `download` action: opens the content stream and, at the same time, asks the action's
 * `fileName` hook for the name when it has one. Nothing is buffered: the caller pulls chunks from `body`.
 */
export async function executeDownload(target: ExecutionTarget, action: CompiledAction, params: Record<string, unknown>): Promise<DownloadResult> {
  const { definition } = action;
  // Side by side: the name costs no extra round trip, and a refused content request (bad range,
  // missing file) is the answer at once. The name is "when known", so failing to learn it is no failure.
  const [upstream, fileName] = await Promise.all([
    target.transport!.requestStream({ call: definition.request!, params, idempotent: true }),
    lookUpFileName(target, action, params),
  ]);
  const length = upstream.headers['content-length'];
  return {
    status: upstream.status,
    content_type: upstream.headers['content-type'] ?? null,
    content_length: length === undefined ? null : Number(length),
    content_range: upstream.headers['content-range'] ?? null,
    file_name: fileName ?? fileNameFromDisposition(upstream.headers['content-disposition']),
    body: upstream.body,
  };
}

/** The name the action's `fileName` hook finds, or null: no hook, no name, or a failed look-up. */
async function lookUpFileName(target: ExecutionTarget, action: CompiledAction, params: Record<string, unknown>): Promise<string | null> {
  const { hooks } = action.definition;
  if (!hooks?.fileName) return null;
  try {
    const name: unknown = await hooks.fileName(params, target.upstream);
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

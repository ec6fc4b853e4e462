import { readPath } from '../transport/object-path.ts';
import { fileNameFromDisposition } from '../transport/content-disposition.ts';
import type { CompiledAction } from '../plugins/compiled-connector.ts';
import type { ExecutionTarget } from './execute-action.ts';
import type { DownloadResult } from './types.ts';

/**
 * Runs a `download` action: opens the content stream and, at the same time, looks the file name up
 * when the action declares how. Nothing is buffered: the caller pulls chunks from `body`.
 */
export async function executeDownload(target: ExecutionTarget, action: CompiledAction, params: Record<string, unknown>): Promise<DownloadResult> {
  const { definition } = action;
  // Side by side: the name costs no extra round trip, and a refused content request (bad range,
  // missing file) is the answer at once. The name is "when known", so failing to learn it is no failure.
  const [upstream, fileName] = await Promise.all([
    target.transport.requestStream({ call: definition.request!, params, idempotent: true }),
    definition.fileName ? lookUpFileName(target, definition.fileName, params).catch(() => null) : null,
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

async function lookUpFileName(
  target: ExecutionTarget,
  lookup: NonNullable<CompiledAction['definition']['fileName']>,
  params: Record<string, unknown>,
): Promise<string | null> {
  const placeholders = [...lookup.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const forwarded = Object.fromEntries(
    [...placeholders, ...(lookup.forwardParams ?? [])].filter((name) => params[name] !== undefined).map((name) => [name, params[name]]),
  );
  const body = await target.transport.requestJson({ call: { method: 'GET', path: lookup.path, defaults: lookup.query }, params: forwarded, idempotent: true });
  const name = readPath(body, lookup.field);
  return typeof name === 'string' ? name : null;
}

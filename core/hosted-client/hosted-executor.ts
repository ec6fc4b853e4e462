import type { Request as GotStream, PlainResponse } from 'got';
import { AccessDeniedError, AuthenticationError, NotFoundError, UpstreamError } from '../errors.ts';
import type { CompiledConnector } from '../plugins/compiled-connector.ts';
import type { DownloadResult, ExecuteRequest, ExecuteResult } from '../execution/types.ts';
import { ConnectorLookup } from './connector-lookup.ts';
import { expectOk, HostedSession, REQUEST_TIMEOUT_MS, type HostedConnectorConfig } from './hosted-session.ts';
import { errorFromWire } from './wire-errors.ts';
import { fileNameFromDisposition } from '../transport/content-disposition.ts';
import { announcedBodyBytes, truncationGuarded } from '../transport/guarded-body.ts';

/**
 * A download's body has no total bound (a large file or a slow reader may rightly take hours): the
 * wait for the head is bounded, then the silence between two chunks.
 */
const DOWNLOAD_TIMEOUTS = { request: undefined, response: REQUEST_TIMEOUT_MS, socket: REQUEST_TIMEOUT_MS };

/**
 * The execute function of the hosted variant: finds the external user's connector of this type and runs
 * requests on the server. It retries once when the server refuses what the client had cached: new
 * tokens after a 401 (a restart, a key rotation); a new look-up after the connector it knew is gone
 * (404 connector_not_found) or is no longer the workspace's (403), e.g. deleted and made again.
 */
export function createHostedExecutor(connector: CompiledConnector, config: HostedConnectorConfig) {
  const session = new HostedSession(config);
  const lookup = new ConnectorLookup(session, connector.type);

  const run = (id: string, token: string, request: ExecuteRequest): Promise<ExecuteResult | DownloadResult> => {
    const options = { headers: { authorization: `Bearer ${token}` }, json: request };
    const path = `api/v1/connectors/sources/${encodeURIComponent(id)}/execute`;
    if (isDownload(connector, request)) return openDownload(session.http.stream.post(path, { ...options, timeout: DOWNLOAD_TIMEOUTS }));
    return session.http.post(path, options).then((response) => expectOk(response) as ExecuteResult);
  };

  return async (request: ExecuteRequest): Promise<ExecuteResult | DownloadResult> => {
    for (let attempt = 1; ; attempt++) {
      const token = await session.scopedToken();
      let id: string | null = null; // set once looked up: only then can the server's answer be about this id
      try {
        id = await lookup.get(token);
        return await run(id, token, request);
      } catch (error) {
        if (attempt > 1) throw error;
        if (error instanceof AuthenticationError) session.discardScopedToken(token);
        else if (id !== null && isStaleConnector(error)) lookup.discard(id);
        else throw error;
      }
    }
  };
}

/** The server's own answers about the connector id (not an upstream 404 or 403, which carry the upstream's code). */
function isStaleConnector(error: unknown): boolean {
  return (error instanceof NotFoundError && error.error_code === 'connector_not_found') || error instanceof AccessDeniedError;
}

function isDownload(connector: CompiledConnector, request: ExecuteRequest): boolean {
  try {
    return connector.resolve(request.entity, request.action).definition.action === 'download';
  } catch {
    return false; // the server answers unknown entities and actions itself
  }
}

/** Waits for the response head; an error status is read as JSON, a success becomes a streamed DownloadResult. */
async function openDownload(stream: GotStream): Promise<DownloadResult> {
  const response = await new Promise<PlainResponse>((resolve, reject) => {
    stream.once('response', resolve);
    stream.once('error', reject);
  }).catch(() => {
    throw new UpstreamError('The Plugboard server could not be reached', 'server_unreachable');
  });
  if (response.statusCode >= 400) {
    throw errorFromWire(response.statusCode, await errorBody(stream), response.headers['retry-after']);
  }
  const length = response.headers['content-length'];
  return {
    status: response.statusCode,
    content_type: response.headers['content-type'] ?? null,
    content_length: length === undefined ? null : Number(length),
    content_range: response.headers['content-range'] ?? null,
    file_name: fileNameFromDisposition(response.headers['content-disposition']),
    body: truncationGuarded(stream, announcedBodyBytes(response.statusCode, response.headers)),
  };
}

/** An error answer's JSON; undefined when it is not JSON or is cut (the status alone then makes the error). */
async function errorBody(stream: GotStream): Promise<unknown> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString());
  } catch {
    return undefined;
  }
}

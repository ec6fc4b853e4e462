import type { Request as GotStream, PlainResponse } from 'got';
import { AuthenticationError, NotFoundError, UpstreamError } from '../errors.ts';
import type { CompiledConnector } from '../plugins/compiled-connector.ts';
import type { DownloadResult, ExecuteRequest, ExecuteResult } from '../execution/types.ts';
import { expectOk, HostedSession, type HostedConnectorConfig } from './hosted-session.ts';
import { errorFromWire } from './wire-errors.ts';
import { fileNameFromDisposition } from '../transport/content-disposition.ts';
import { truncationGuarded } from '../transport/guarded-body.ts';

/**
 * The execute function of the hosted variant: finds the external user's connector of this type,
 * runs requests on the server, and retries once with fresh tokens when the server answers 401.
 */
export function createHostedExecutor(connector: CompiledConnector, config: HostedConnectorConfig) {
  const session = new HostedSession(config);
  let connectorId: string | null = null;

  const findConnector = async (token: string): Promise<string> => {
    if (connectorId) return connectorId;
    const response = await session.http.get('api/v1/integrations/connectors', {
      headers: { authorization: `Bearer ${token}` },
      searchParams: { external_user_id: config.external_user_id, connector_type: connector.type },
    });
    const { data } = expectOk(response) as { data: Array<{ id: string }> };
    if (!data[0]) {
      throw new NotFoundError(`No ${connector.type} connector for external user "${config.external_user_id}" in workspace "${session.workspaceName}"`, 'connector_not_found');
    }
    connectorId = data[0].id;
    return connectorId;
  };

  const attempt = async (request: ExecuteRequest, fresh: boolean): Promise<ExecuteResult | DownloadResult> => {
    const token = await session.scopedToken(fresh);
    const id = await findConnector(token);
    const options = { headers: { authorization: `Bearer ${token}` }, json: request };
    const path = `api/v1/connectors/sources/${encodeURIComponent(id)}/execute`;
    if (isDownload(connector, request)) return openDownload(session.http.stream.post(path, options));
    return expectOk(await session.http.post(path, options)) as ExecuteResult;
  };

  return async (request: ExecuteRequest): Promise<ExecuteResult | DownloadResult> => {
    try {
      return await attempt(request, false);
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
      // A token revoked by key rotation or a restart: one retry with new tokens.
      return attempt(request, true);
    }
  };
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
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString());
    } catch {
      body = undefined;
    }
    throw errorFromWire(response.statusCode, body, response.headers['retry-after']);
  }
  const length = response.headers['content-length'];
  return {
    status: response.statusCode,
    content_type: response.headers['content-type'] ?? null,
    content_length: length === undefined ? null : Number(length),
    content_range: response.headers['content-range'] ?? null,
    file_name: fileNameFromDisposition(response.headers['content-disposition']),
    body: truncationGuarded(stream),
  };
}

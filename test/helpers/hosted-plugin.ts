import got, { type Got } from 'got';
import { bearer } from './hosted-fixture.ts';
import type { ServerProcess } from './server-process.ts';

/**
 * A started server's first application, a scoped token for a new workspace, and a stored connector of
 * `type` made with `credentials`: what an operator does before executing a plugin's actions.
 */
export async function storedPluginConnector(server: ServerProcess, type: string, credentials: Record<string, string>) {
  const http: Got = got.extend({ prefixUrl: server.url!, throwHttpErrors: false, retry: { limit: 0 } });
  const { access_token: operator } = await http.post('api/v1/account/applications/token', { json: server.firstApplication }).json<{ access_token: string }>();
  const { token } = await http
    .post('api/v1/embedded/scoped-token', { headers: bearer(operator), json: { workspace_name: `${type}-users` } })
    .json<{ token: string }>();
  const created = await http.post('v1/integrations/connectors', {
    headers: bearer(token),
    json: { external_user_id: 'user-1', connector_type: type, credentials },
  });
  const id = created.statusCode === 201 ? (JSON.parse(created.body) as { id: string }).id : undefined;
  const execute = (request: { entity: string; action: string; params: Record<string, unknown> }) =>
    http.post(`api/v1/connectors/sources/${id}/execute`, { headers: bearer(token), json: request });
  return { created, id, execute };
}

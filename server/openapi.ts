import type { TokenUse } from '../core/hosted/token-claims.ts';
import type { RouteDefinition } from './route.ts';

/**
 * The server's own API as OpenAPI 3.0, built from the route table: the same body schemas that
 * validate requests, so the document cannot drift from the behaviour.
 */
export function buildOpenApi(routes: RouteDefinition[], publicUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    for (const path of route.paths) {
      const openApiPath = path.replace(/:(\w+)/g, '{$1}');
      const parameters = [...path.matchAll(/:(\w+)/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } }));
      paths[openApiPath] ??= {};
      paths[openApiPath][route.method] = {
        summary: route.summary,
        tags: route.tags,
        ...(parameters.length ? { parameters } : {}),
        ...(route.auth === 'none' ? { security: [] } : { security: securityFor(route.auth) }),
        ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: stripMeta(route.body) } } } } : {}),
        responses: Object.fromEntries(
          Object.entries({ ...impliedResponses(route, parameters.length > 0), ...route.responses }).map(([status, description]) => [
            status,
            Number(status) >= 400 ? { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } : { description },
          ]),
        ),
      };
    }
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Plugboard hosted API', version: '1.0.0', description: 'Tokens, workspaces, templates, hosted connectors and execute.' },
    servers: [{ url: publicUrl }],
    paths,
    components: {
      securitySchemes: {
        operatorToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Operator token (15 minutes)' },
        scopedToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Scoped token (20 minutes, one workspace)' },
        widgetToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "The scoped token inside a widget token (20 minutes, one workspace, from its allowed origin): templates its tags allow and the workspace's embedded sources only; other routes answer 403",
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['detail'],
          properties: {
            detail: {
              oneOf: [
                { type: 'string' },
                {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['loc', 'msg', 'type'],
                    properties: {
                      loc: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
                      msg: { type: 'string' },
                      type: { type: 'string' },
                    },
                  },
                },
              ],
            },
            error_code: { type: 'string' },
          },
        },
      },
    },
  };
}

/** Answers the route layer gives on its own (server/app.ts), so no route has to remember to list them. */
function impliedResponses(route: RouteDefinition, hasPathParams: boolean): Record<number, string> {
  const implied: Record<number, string> = {};
  if (route.auth !== 'none' && !route.auth.includes('widget')) implied[403] = 'A widget token: it may call only the embedded template and source routes';
  if (hasPathParams) implied[422] = 'Invalid path parameter (a NUL character, a lone surrogate, "." or "..")';
  if (route.body)
    Object.assign(implied, { 415: 'A body that is not application/json', 422: 'Invalid body (schema, or a NUL character or lone surrogate in any string)' });
  return implied;
}

const SECURITY_SCHEME: Record<TokenUse, string> = { operator: 'operatorToken', scoped: 'scopedToken', widget: 'widgetToken' };

function securityFor(auth: readonly TokenUse[]): Array<Record<string, string[]>> {
  return auth.map((use) => ({ [SECURITY_SCHEME[use]]: [] }));
}

/** JSON Schema draft keywords OpenAPI 3.0 does not take. */
function stripMeta(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, ...rest } = schema;
  return rest;
}

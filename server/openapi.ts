import type { Access } from '../core/hosted/permissions/roles.ts';
import type { TokenUse } from '../core/hosted/token-claims.ts';
import { SERVER_SCHEMAS } from '../core/hosted/types.generated.ts';
import type { JsonSchema } from '../core/sdk/index.ts';
import { SchemaComponents } from './openapi-components.ts';
import type { AnyRoute, ResponseDoc } from './route.ts';

/**
 * The server's own API as OpenAPI 3.1 (whose schemas are JSON Schema, so the files of schemas/server/
 * go in as they are), built from the route table: the same schemas that validate requests and type
 * the handlers, so the document cannot drift from the behaviour.
 */
export function buildOpenApi(routes: readonly AnyRoute[], publicUrl: string): Record<string, unknown> {
  const components = new SchemaComponents();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const success = route.status ?? 200;
    if (route.responses[success] === undefined) throw new Error(`${route.method} ${route.paths[0]}: its responses must describe its ${success}`);
    for (const path of route.paths) {
      const openApiPath = path.replace(/:(\w+)/g, '{$1}');
      const pathParameters = [...path.matchAll(/:(\w+)/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } }));
      const parameters = [...pathParameters, ...(route.query ? queryParameters(route.query) : [])];
      const responses = withImplied(route.responses, impliedResponses(route, pathParameters.length > 0));
      paths[openApiPath] ??= {};
      paths[openApiPath][route.method] = {
        summary: route.summary,
        tags: route.tags,
        ...(parameters.length ? { parameters } : {}),
        security: route.auth === 'none' ? [] : securityFor(route.auth),
        ...(route.body ? { requestBody: { required: true, content: requestContent(route, components.ref(route.body)) } } : {}),
        responses: Object.fromEntries(Object.entries(responses).map(([status, doc]) => [status, responseOf(route, Number(status), doc, components)])),
      };
    }
  }
  return {
    openapi: '3.1.0',
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
      schemas: components.all(),
    },
  };
}

/**
 * An answer and its body: the route's `returns` for its success status, the error bodies for 4xx
 * and 5xx (ValidationErrorResponse for a 422), unless the route names another schema for it.
 */
function responseOf(route: AnyRoute, status: number, doc: ResponseDoc, components: SchemaComponents): Record<string, unknown> {
  const { description, schema, file } = typeof doc === 'string' ? { description: doc, schema: undefined, file: undefined } : doc;
  const success = status === (route.status ?? 200);
  const json = schema ?? (success ? route.returns : errorSchemaFor(status, route));
  const mediaType = !success && route.problems ? 'application/problem+json' : 'application/json';
  const content = {
    ...(json ? { [mediaType]: { schema: components.ref(json) } } : {}),
    ...(file ? { '*/*': { schema: { type: 'string', format: 'binary' } } } : {}),
  };
  return Object.keys(content).length > 0 ? { description, content } : { description };
}

function errorSchemaFor(status: number, route: AnyRoute): JsonSchema | undefined {
  if (status >= 400 && route.problems) return SERVER_SCHEMAS['problem-response.json'];
  if (status === 422) return SERVER_SCHEMAS['validation-error-response.json'];
  return status >= 400 ? SERVER_SCHEMAS['error-response.json'] : undefined;
}

/** A body's media types: JSON, and for a route that takes forms, the same fields form-encoded. */
function requestContent(route: AnyRoute, schema: { $ref: string }): Record<string, unknown> {
  return { 'application/json': { schema }, ...(route.formBody ? { 'application/x-www-form-urlencoded': { schema } } : {}) };
}

/** One query parameter per property of the route's query schema. */
function queryParameters(query: JsonSchema): Array<Record<string, unknown>> {
  const properties = (query.properties ?? {}) as Record<string, JsonSchema>;
  const required = (query.required ?? []) as string[];
  return Object.entries(properties).map(([name, { description, ...schema }]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    ...(typeof description === 'string' ? { description } : {}),
    schema,
  }));
}

/** The route's answers and the route layer's; a status both give is described by both. */
function withImplied(own: Record<number, ResponseDoc>, implied: Record<number, string>): Record<number, ResponseDoc> {
  const answers = { ...own };
  for (const [status, layer] of Object.entries(implied)) {
    const doc = answers[Number(status)];
    const both = (description: string) => `${description}; or ${layer.charAt(0).toLowerCase()}${layer.slice(1)}`;
    answers[Number(status)] = doc === undefined ? layer : typeof doc === 'string' ? both(doc) : { ...doc, description: both(doc.description) };
  }
  return answers;
}

/** Answers the route layer gives on its own (server/app.ts), so no route has to remember to list them. */
function impliedResponses(route: AnyRoute, hasPathParams: boolean): Record<number, string> {
  const implied: Record<number, string> = {};
  if (route.auth !== 'none') {
    const widget = route.auth.includes('widget')
      ? 'A widget token sent from an origin other than its allowed_origin'
      : 'A widget token: it may call only the embedded template and source routes';
    implied[403] = `${widget}; or a caller whose permissions do not allow ${ACCESS_WORDS[route.access === 'none' ? 'member' : route.access]} (there)`;
  }
  const invalid = [
    'a NUL character or lone surrogate in a query value',
    ...(hasPathParams ? ['a path parameter with one, or "." or ".."'] : []),
    ...(route.query ? ['a query parameter its schema refuses'] : []),
    ...(route.body ? ['a body its schema refuses, or with a NUL character or lone surrogate in any string'] : []),
  ];
  // The public cloud API answers invalid input with a 400, as the official one does.
  implied[route.problems ? 400 : 422] = `Invalid request: ${invalid.join('; ')}`;
  if (route.body) {
    Object.assign(implied, {
      400: `${route.problems ? `${implied[400]}; or a` : 'A'} body that is not valid JSON, or that cannot be decoded`,
      413: 'A body larger than the limit',
      415: route.formBody ? 'A body neither application/json nor form-encoded' : 'A body that is not application/json',
    });
  }
  return implied;
}

/** What a route's declared access asks of the caller's permissions, in words. */
const ACCESS_WORDS: Record<Access, string> = {
  member: 'membership of the organization',
  read: 'reading',
  run: 'running syncs, jobs and checks',
  edit: 'changing resources',
  admin: 'administering',
};

const SECURITY_SCHEME: Record<TokenUse, string> = { operator: 'operatorToken', scoped: 'scopedToken', widget: 'widgetToken' };

function securityFor(auth: readonly TokenUse[]): Array<Record<string, string[]>> {
  return auth.map((use) => ({ [SECURITY_SCHEME[use]]: [] }));
}

import Koa from 'koa';
import { Router } from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { ValidateFunction } from 'ajv';
import type { Logger } from 'pino';
import { AccessDeniedError, PlugboardError, ValidationError } from '../core/errors.ts';
import type { HostedRuntime } from '../core/hosted/hosted-runtime.ts';
import { servedAs } from '../core/hosted/permissions/request-access.ts';
import { covers } from '../core/hosted/permissions/roles.ts';
import { createAjv } from '../core/schema/ajv.ts';
import { SERVER_SCHEMAS } from '../core/hosted/types.generated.ts';
import { toValidationIssues } from '../core/schema/validation-issues.ts';
import type { ServerConfig } from './config.ts';
import { authenticate } from './middleware/authenticate.ts';
import { errorHandler } from './middleware/errors.ts';
import { requireJsonBody } from './middleware/json-body.ts';
import { readJsonBody } from './middleware/read-json-body.ts';
import { jsonMayHoldUnsafeText, pathParamIssues, unsafeTextIssues } from './middleware/unsafe-text.ts';
import { requestLog } from './middleware/request-log.ts';
import { widgetCors } from './middleware/widget-cors.ts';
import { registerWidgetRoutes } from './widget-routes.ts';
import { consoleApiBridge } from './console/console-api-bridge.ts';
import { registerConsoleRoutes } from './console/console-routes.ts';
import { jsonBytes } from './json-bytes.ts';
import { buildOpenApi } from './openapi.ts';
import type { AnyRoute } from './route.ts';
import { connectorRoutes } from './routes/connectors.ts';
import { metaRoutes } from './routes/meta.ts';
import { registerLandingPage } from './landing-page.ts';
import { configConnectionCheckRoutes } from './routes/config-connection-checks.ts';
import { configStateRoutes } from './routes/config-state.ts';
import { configWebBackendRoutes } from './routes/config-web-backend.ts';
import { publicApiRoutes } from './routes/public-api.ts';
import { publicConnectionRoutes } from './routes/public-connections.ts';
import { publicJobRoutes } from './routes/public-jobs.ts';
import { publicOrganizationRoutes } from './routes/public-organizations.ts';
import { publicPermissionRoutes } from './routes/public-permissions.ts';
import { publicDefinitionRoutes } from './routes/public-definitions.ts';
import { publicDestinationRoutes } from './routes/public-destinations.ts';
import { publicHealthRoutes } from './routes/public-health.ts';
import { publicStreamRoutes } from './routes/public-streams.ts';
import { publicTagRoutes } from './routes/public-tags.ts';
import { answerUnmatchedPublicRequest } from './routes/public-unmatched.ts';
import { publicSourceRoutes } from './routes/public-sources.ts';
import { publicDeclarativeSourceRoutes } from './routes/public-declarative-sources.ts';
import { publicOAuthRoutes } from './routes/public-oauth.ts';
import { embeddedOAuthRoutes } from './routes/embedded-oauth.ts';
import { templateRoutes } from './routes/templates.ts';
import { tokenRoutes } from './routes/tokens.ts';
import { notificationRoutes } from './routes/notifications.ts';

export const ROUTES: AnyRoute[] = [
  ...tokenRoutes,
  ...templateRoutes,
  ...connectorRoutes,
  ...embeddedOAuthRoutes,
  ...publicApiRoutes,
  ...publicHealthRoutes,
  ...publicOAuthRoutes,
  ...publicSourceRoutes,
  ...publicDeclarativeSourceRoutes,
  ...publicDefinitionRoutes,
  ...publicDestinationRoutes,
  ...publicConnectionRoutes,
  ...publicStreamRoutes,
  ...publicTagRoutes,
  ...publicJobRoutes,
  ...configConnectionCheckRoutes,
  ...configStateRoutes,
  ...configWebBackendRoutes,
  ...publicOrganizationRoutes,
  ...publicPermissionRoutes,
  ...notificationRoutes,
  ...metaRoutes,
];

/**
 * The Koa adapter: routes from the table, each authenticated, validated and answered the same way.
 * Every input a handler sees (path params, query values, body) is checked here, once, so no route
 * can forget a rule.
 */
export function createApp(hosted: HostedRuntime, config: ServerConfig, logger: Logger): Koa {
  // ctx.ip: the socket's address, or, behind trusted proxies, the address the outermost one saw.
  const app = new Koa({ proxy: config.trustedProxyHops > 0, maxIpsCount: config.trustedProxyHops });
  const router = new Router();
  const ajv = createAjv();
  // A schema may refer to another file of schemas/server/ by its name.
  for (const [file, schema] of Object.entries(SERVER_SCHEMAS)) ajv.addSchema(schema, file);
  const openApi = buildOpenApi(ROUTES, config.publicUrl);
  const cors = widgetCors(hosted.tokens, hosted.widgetOrigins);
  // The widget page's origin: its calls carry a widget token from there, not from the allowed origin.
  const ownOrigin = new URL(config.publicUrl).origin;
  /** The paths of routes that answer failures as problem details; errors before routing (a body that can't be read) follow them too. */
  const problemPaths = new Set<string>();
  const asProblem = (ctx: Koa.ParameterizedContext) => router.match(ctx.path, ctx.method).pathAndMethod.some((layer) => problemPaths.has(String(layer.path)));
  /** Whether the routes at the request's path, whatever their method, answer problem details (undefined: no route has the path). */
  const pathAnswersProblems = (ctx: Koa.ParameterizedContext) => {
    const layers = router.match(ctx.path, ctx.method).path;
    return layers.length === 0 ? undefined : layers.some((layer) => problemPaths.has(String(layer.path)));
  };

  for (const route of ROUTES) {
    const validateQuery: ValidateFunction | undefined = route.query ? ajv.compile(route.query) : undefined;
    const validateBody: ValidateFunction | undefined = route.body ? ajv.compile(route.body) : undefined;
    const middleware = async (ctx: Koa.ParameterizedContext) => {
      const claims = await authenticate(ctx, hosted.tokens, route.auth, ownOrigin);
      const caller = claims && (await hosted.permissions.callerOf(claims));
      // A route doing more than the caller may do anywhere is refused before it runs; core checks each workspace it reaches.
      if (caller && (route.access === 'none' || !covers(caller.highest(), route.access))) throw new AccessDeniedError();
      if (route.body) requireJsonBody(ctx, route.formBody);
      const body = ctx.request.body ?? {};
      const params = (ctx as unknown as { params: Record<string, string> }).params ?? {};
      const query = firstValues(ctx.query);
      const issues = [
        ...pathParamIssues(params),
        ...unsafeTextIssues(query, ['query']),
        ...(validateQuery && !validateQuery(query) ? toValidationIssues(validateQuery.errors ?? [], ['query']) : []),
        ...(validateBody && !validateBody(body) ? toValidationIssues(validateBody.errors ?? [], ['body']) : []),
        // The walk costs a pass over every body; only a body whose text has a NUL or surrogate escape needs it.
        // A form's text is percent-encoded: only its decoded values can tell.
        ...(route.formBody || jsonMayHoldUnsafeText(ctx.request.rawBody as string | undefined) ? unsafeTextIssues(body, ['body']) : []),
      ];
      if (issues.length > 0) throw new ValidationError(issues);
      const input = { ctx, body: route.body ? body : undefined, params, query, claims, caller, hosted, config };
      const result = await (caller && route.access !== 'none'
        ? servedAs({ caller, access: route.access }, async () => route.handler(input))
        : route.handler(input));
      if (result !== undefined) {
        ctx.status = route.status ?? 200;
        // Serialised once here: Koa would otherwise measure the string, then encode it again to send it.
        ctx.type = 'application/json';
        ctx.body = jsonBytes(result);
      }
    };
    for (const path of route.paths) {
      if (route.problems) problemPaths.add(path);
      if (route.cors) router.register(path, [route.method.toUpperCase(), 'OPTIONS'], [cors, middleware]);
      else router.register(path, [route.method.toUpperCase()], [middleware]);
    }
  }
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApi;
  });
  registerWidgetRoutes(router, hosted);
  registerConsoleRoutes(router, hosted, ownOrigin);
  registerLandingPage(router);

  // Failures after the response started (an upstream cut mid-download) go to our log, not to Koa's stderr printer.
  app.on('error', (error: Error) => logger.warn({ error: error.name, detail: error.message }, 'response failed after it started'));
  app.use(requestLog(logger));
  app.use(errorHandler(logger, asProblem));
  // JSON is read by our own reader (its depth checked before it is parsed), forms by the body parser.
  app.use(bodyErrorsAsClientErrors(readJsonBody(config.bodyLimitBytes)));
  app.use(bodyErrorsAsClientErrors(bodyParser({ enableTypes: ['form'], formLimit: config.bodyLimitBytes, encoding: 'utf-8' })));
  app.use(async (ctx, next) => {
    await next();
    // No route, or not this method: the answer is still a JSON error body ({detail}).
    const status = ctx.status;
    if (ctx.body !== undefined || (status !== 404 && status !== 405)) return;
    if (answerUnmatchedPublicRequest(ctx, status, pathAnswersProblems(ctx))) return;
    ctx.body = { detail: status === 404 ? 'Not found' : 'Method not allowed' };
    ctx.status = status; // setting a body on Koa's implicit 404 would turn it into a 200
  });
  app.use(consoleApiBridge(hosted, ownOrigin));
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: false }));
  return app;
}

/**
 * Whatever goes wrong while reading a body (bad JSON, a bad Content-Encoding stream, a charset it
 * can't decode) is the client's: a 4xx, never a 500. Our own refusals (a body nested too deep) keep their answer.
 */
function bodyErrorsAsClientErrors(parse: Koa.Middleware): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await parse(ctx, async () => undefined);
    } catch (error) {
      if (error instanceof PlugboardError) throw error;
      const status = (error as { status?: number }).status;
      throw Object.assign(new Error((error as Error).message), { status: typeof status === 'number' && status >= 400 && status < 500 ? status : 400 });
    }
    await next();
  };
}

/** A repeated query parameter (`?a=1&a=2`) counts once: handlers see strings, never arrays. */
function firstValues(query: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(query).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value]));
}

import Koa from 'koa';
import { Router } from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { ValidateFunction } from 'ajv';
import type { Logger } from 'pino';
import { ValidationError } from '../core/errors.ts';
import type { HostedRuntime } from '../core/hosted/hosted-runtime.ts';
import { createAjv } from '../core/schema/ajv.ts';
import { toValidationIssues } from '../core/schema/validation-issues.ts';
import type { ServerConfig } from './config.ts';
import { authenticate } from './middleware/authenticate.ts';
import { errorHandler } from './middleware/errors.ts';
import { requestLog } from './middleware/request-log.ts';
import { widgetCors } from './middleware/widget-cors.ts';
import { buildOpenApi } from './openapi.ts';
import type { RouteDefinition } from './route.ts';
import { connectorRoutes } from './routes/connectors.ts';
import { metaRoutes } from './routes/meta.ts';
import { templateRoutes } from './routes/templates.ts';
import { tokenRoutes } from './routes/tokens.ts';

export const ROUTES: RouteDefinition[] = [...tokenRoutes, ...templateRoutes, ...connectorRoutes, ...metaRoutes];

/** The Koa adapter: routes from the table, each authenticated, validated and answered the same way. */
export function createApp(hosted: HostedRuntime, config: ServerConfig, logger: Logger): Koa {
  const app = new Koa({ proxy: false });
  const router = new Router();
  const ajv = createAjv();
  const openApi = buildOpenApi(ROUTES, config.publicUrl);
  const cors = widgetCors(hosted.tokens);

  for (const route of ROUTES) {
    const validateBody: ValidateFunction | undefined = route.body ? ajv.compile(route.body) : undefined;
    const middleware = async (ctx: Koa.ParameterizedContext) => {
      const claims = await authenticate(ctx, hosted.tokens, route.auth);
      const body = ctx.request.body ?? {};
      if (validateBody && !validateBody(body)) throw new ValidationError(toValidationIssues(validateBody.errors ?? [], ['body']));
      const params = (ctx as unknown as { params: Record<string, string> }).params ?? {};
      const result = await route.handler({ ctx, body, params, query: firstValues(ctx.query), claims, hosted, config });
      if (result !== undefined) {
        ctx.status = route.status ?? 200;
        // Serialised once here: Koa would otherwise measure the string, then encode it again to send it.
        ctx.type = 'application/json';
        ctx.body = Buffer.from(JSON.stringify(result));
      }
    };
    for (const path of route.paths) {
      if (route.cors) router.register(path, [route.method.toUpperCase(), 'OPTIONS'], [cors, middleware]);
      else router.register(path, [route.method.toUpperCase()], [middleware]);
    }
  }
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApi;
  });

  app.use(requestLog(logger));
  app.use(errorHandler(logger));
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: config.bodyLimitBytes, encoding: 'utf-8' }));
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: false }));
  app.use((ctx) => {
    if (ctx.status === 404 && ctx.body === undefined) {
      ctx.status = 404;
      ctx.body = { detail: 'Not found' };
    }
  });
  return app;
}

/** A repeated query parameter (`?a=1&a=2`) counts once: handlers see strings, never arrays. */
function firstValues(query: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(query).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value]));
}

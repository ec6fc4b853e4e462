import { defineRoute } from '../route.ts';
import { at } from './public-api.ts';

/** The public cloud API's health check: anonymous, answered as Airbyte's is (the text, no JSON). */
export const publicHealthRoutes = [
  defineRoute({
    method: 'get',
    access: 'none',
    paths: at('/health'),
    summary: 'Health check of the public cloud API (anonymous): 200 with the text "Successful operation".',
    tags: ['public API'],
    auth: 'none',
    problems: true,
    responses: { 200: { description: 'Successful operation (text/plain)', file: true } },
    handler({ ctx }) {
      ctx.type = 'text/plain';
      ctx.body = 'Successful operation';
      return undefined;
    },
  }),
];

/**
 * Google's Drive Discovery document as OpenAPI 3: google-discovery-to-swagger makes Swagger 2.0 of
 * it and swagger2openapi OpenAPI 3.0 of that (the APIs.guru pipeline). The prefixed variant puts
 * every path under the service path (`/drive/v3/files`), as the sandbox serves it.
 */
import { createRequire } from 'node:module';

// Both converters are CommonJS without type declarations.
const require = createRequire(import.meta.url);
const discoveryToSwagger = require('google-discovery-to-swagger') as { convert(discovery: unknown): Record<string, unknown> };
const swagger2openapi = require('swagger2openapi') as {
  convertObj(swagger: unknown, options: { patch: boolean; warnOnly: boolean }): Promise<{ openapi: OpenApi }>;
};

export interface DiscoveryDocument {
  discoveryVersion: string;
  revision: string;
  servicePath: string;
  [key: string]: unknown;
}

export interface OpenApi {
  paths: Record<string, unknown>;
  servers?: { url: string }[];
  [key: string]: unknown;
}

export async function driveOpenApi(discovery: DiscoveryDocument): Promise<OpenApi> {
  const swagger = discoveryToSwagger.convert(discovery);
  // Discovery's global `alt` parameter defaults to json, so every answer is JSON; without this swagger2openapi writes `*/*`.
  swagger.produces = ['application/json'];
  const { openapi } = await swagger2openapi.convertObj(swagger, { patch: true, warnOnly: true });
  return openapi;
}

export function withServicePath(openapi: OpenApi, servicePath: string): OpenApi {
  const prefix = `/${servicePath.replace(/^\/+|\/+$/g, '')}`;
  const paths = Object.fromEntries(Object.entries(openapi.paths).map(([path, item]) => [`${prefix}${path}`, item]));
  return { ...openapi, paths, servers: [{ url: '/' }] };
}

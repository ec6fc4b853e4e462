import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { configBuilderProjectRoutes } from './config-builder-projects.ts';
import { at, INVALID, NOT_ALLOWED } from './public-api.ts';
import { pageLinks, pageOf } from './public-pages.ts';

const collection = at('/workspaces/:workspace_id/definitions/declarative_sources');
const one = at('/workspaces/:workspace_id/definitions/declarative_sources/:definition_id');
const NOT_FOUND = 'No such workspace in the organization, or no such definition in it';
const MANIFEST_INVALID = `${INVALID}: every problem of the manifest (an Airbyte manifest's as the interpreter loads it, each at its place: a Python component, a component not run), a Plugboard manifest's as a loaded connector's are checked, a code-only field, a type taken, a base URL not http(s)`;
const TYPE_TAKEN = "Another definition of the workspace has the manifest's type";
const common = { tags: ['public API'], auth: ['operator'] as const, problems: true };

/**
 * Custom declarative source definitions of the public cloud API (Airbyte's wire shapes), and their
 * builder projects' testing values through the config API: the rules are in core/hosted/cloud-api/declarative-*.ts.
 */
export const publicDeclarativeSourceRoutes = [
  defineRoute({
    ...common,
    method: 'get',
    access: 'read',
    paths: collection,
    summary: "List the workspace's declarative source definitions, a page at a time.",
    query: SERVER_SCHEMAS['public-page-query.json'],
    returns: SERVER_SCHEMAS['declarative-source-definition-list.json'],
    responses: { 200: 'A page of definitions', 400: INVALID, 401: NOT_ALLOWED, 404: 'No such workspace in the organization' },
    async handler({ hosted, claims, params, query, ctx, config }) {
      const page = pageOf(query);
      const found = await hosted.publicApi.declarativeSources.list(claims.organization_id, params.workspace_id!, page);
      return { data: found.items, ...pageLinks(ctx, config, page, found) };
    },
  }),
  defineRoute({
    ...common,
    method: 'post',
    access: 'edit',
    paths: collection,
    summary:
      'Publish a declarative source definition (an Airbyte declarative manifest, or a Plugboard declarative connector manifest; JSON or YAML): sources of the workspace can then be made of it.',
    body: SERVER_SCHEMAS['declarative-source-definition-create-request.json'],
    returns: SERVER_SCHEMAS['declarative-source-definition.json'],
    responses: { 200: 'The definition, version 1', 400: MANIFEST_INVALID, 401: NOT_ALLOWED, 404: 'No such workspace in the organization', 409: TYPE_TAKEN },
    handler: ({ hosted, claims, params, body }) => hosted.publicApi.declarativeSources.create(claims.organization_id, params.workspace_id!, body),
  }),
  defineRoute({
    ...common,
    method: 'get',
    access: 'read',
    paths: one,
    summary: 'Get a declarative source definition: its manifest and version.',
    returns: SERVER_SCHEMAS['declarative-source-definition.json'],
    responses: { 200: 'The definition', 401: NOT_ALLOWED, 404: NOT_FOUND },
    handler: ({ hosted, claims, params }) => hosted.publicApi.declarativeSources.get(claims.organization_id, params.workspace_id!, params.definition_id!),
  }),
  defineRoute({
    ...common,
    method: 'put',
    access: 'edit',
    paths: one,
    summary: "Replace a declarative source definition's manifest: its version goes one up, and its sources read with the new one.",
    body: SERVER_SCHEMAS['declarative-source-definition-update-request.json'],
    returns: SERVER_SCHEMAS['declarative-source-definition.json'],
    responses: { 200: 'The definition, one version up', 400: MANIFEST_INVALID, 401: NOT_ALLOWED, 404: NOT_FOUND, 409: TYPE_TAKEN },
    handler: ({ hosted, claims, params, body }) =>
      hosted.publicApi.declarativeSources.update(claims.organization_id, params.workspace_id!, params.definition_id!, body),
  }),
  defineRoute({
    ...common,
    method: 'delete',
    access: 'edit',
    paths: one,
    summary: 'Delete a declarative source definition, with its sources and the connections using them (as Airbyte does).',
    returns: SERVER_SCHEMAS['declarative-source-definition.json'],
    responses: { 200: 'The definition deleted', 401: NOT_ALLOWED, 404: NOT_FOUND },
    handler: ({ hosted, claims, params }) => hosted.publicApi.declarativeSources.delete(claims.organization_id, params.workspace_id!, params.definition_id!),
  }),
  ...configBuilderProjectRoutes,
];

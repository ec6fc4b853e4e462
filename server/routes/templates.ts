import { createTemplate, listTemplates } from '../../core/hosted/templates.ts';
import { widgetScopeOf, type OperatorTokenClaims, type WorkspaceTokenClaims } from '../../core/hosted/token-claims.ts';
import type { TemplateKind } from '../../core/stores/types.ts';
import templateCreateRequest from '../../schemas/server/template-create-request.json' with { type: 'json' };
import { defineRoute } from '../route.ts';

const KINDS: Array<{ kind: TemplateKind; plural: string }> = [
  { kind: 'source', plural: 'sources' },
  { kind: 'connection', plural: 'connections' },
];

/** Operator endpoints to manage templates, and the widget's view of them (filtered by its token's tags). */
export const templateRoutes = KINDS.flatMap(({ kind, plural }) => [
  defineRoute({
    method: 'get',
    paths: [`/api/v1/integrations/templates/${plural}`],
    summary: `List the organization's ${kind} templates.`,
    tags: ['templates'],
    auth: ['operator'],
    responses: { 200: `{data: ${kind} templates}`, 401: 'Missing or invalid operator token' },
    async handler({ hosted, claims }) {
      return { data: await listTemplates(hosted.store, (claims as OperatorTokenClaims).organization_id, kind) };
    },
  }),
  defineRoute<{ name: string; connector_type: string; tags?: string[] }>({
    method: 'post',
    paths: [`/api/v1/integrations/templates/${plural}`],
    summary: `Create a ${kind} template with a connector type and tags.`,
    tags: ['templates'],
    auth: ['operator'],
    body: templateCreateRequest,
    status: 201,
    responses: { 201: `The ${kind} template`, 401: 'Missing or invalid operator token', 422: 'Invalid body' },
    async handler({ hosted, claims, body }) {
      return createTemplate(hosted.store, (claims as OperatorTokenClaims).organization_id, kind, body, hosted.runtime.connectorTypes());
    },
  }),
  defineRoute({
    method: 'get',
    paths: [`/api/v1/embedded/templates/${plural}`],
    summary: `The ${kind} templates a widget offers: its token's tag filter applied.`,
    tags: ['embedded'],
    auth: ['scoped', 'widget'],
    cors: true,
    responses: { 200: `{data: ${kind} templates}`, 401: 'Missing or invalid scoped or widget token' },
    async handler({ hosted, claims }) {
      return { data: await listTemplates(hosted.store, (claims as WorkspaceTokenClaims).organization_id, kind, widgetScopeOf(claims)) };
    },
  }),
]);

import { createTemplate, listTemplates } from '../../core/hosted/templates.ts';
import { widgetScopeOf } from '../../core/hosted/token-claims.ts';
import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import type { TemplateKind } from '../../core/stores/types.ts';
import { defineRoute } from '../route.ts';

const KINDS: Array<{ kind: TemplateKind; plural: string }> = [
  { kind: 'source', plural: 'sources' },
  { kind: 'connection', plural: 'connections' },
];

/** Operator endpoints to manage templates, and the widget's view of them (filtered by its token's tags). */
export const templateRoutes = KINDS.flatMap(({ kind, plural }) => [
  defineRoute({
    method: 'get',
    access: 'member',
    paths: [`/api/v1/integrations/templates/${plural}`],
    summary: `List the organization's ${kind} templates.`,
    tags: ['templates'],
    auth: ['operator'],
    returns: SERVER_SCHEMAS['template-list.json'],
    responses: { 200: `The ${kind} templates`, 401: 'Missing or invalid operator token' },
    async handler({ hosted, claims }) {
      return { data: await listTemplates(hosted.store, claims.organization_id, kind) };
    },
  }),
  defineRoute({
    method: 'post',
    access: 'edit',
    paths: [`/api/v1/integrations/templates/${plural}`],
    summary: `Create a ${kind} template with a connector type and tags.`,
    tags: ['templates'],
    auth: ['operator'],
    body: SERVER_SCHEMAS['template-create-request.json'],
    status: 201,
    returns: SERVER_SCHEMAS['template.json'],
    responses: { 201: `The ${kind} template`, 401: 'Missing or invalid operator token', 422: 'Invalid body, or an unknown connector type' },
    handler: ({ hosted, claims, body }) => createTemplate(hosted.store, claims.organization_id, kind, body, hosted.runtime.connectorTypes()),
  }),
  defineRoute({
    method: 'get',
    access: 'read',
    paths: [`/api/v1/embedded/templates/${plural}`],
    summary: `The ${kind} templates a widget offers: its token's tag filter applied.`,
    tags: ['embedded'],
    auth: ['scoped', 'widget'],
    cors: true,
    returns: SERVER_SCHEMAS['template-list.json'],
    responses: { 200: `The ${kind} templates`, 401: 'Missing or invalid scoped or widget token' },
    async handler({ hosted, claims }) {
      return { data: await listTemplates(hosted.store, claims.organization_id, kind, widgetScopeOf(claims)) };
    },
  }),
]);

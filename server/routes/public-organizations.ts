import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { configNotFound } from './config-errors.ts';
import { at, NOT_ALLOWED } from './public-api.ts';

const common = { tags: ['public API'], auth: ['operator'] as const };
const INFO_NOT_FOUND = "No such organization, or not the caller's";

/**
 * Organizations: the public cloud API's list, and the config API's organization info (by
 * organization or by workspace). A token reaches its own organization only: core/hosted/cloud-api/public-organizations.ts.
 */
export const publicOrganizationRoutes = [
  defineRoute({
    ...common,
    method: 'get',
    access: 'member',
    paths: at('/organizations'),
    summary: "List the caller's organizations: the one its token is for, with the deployment's contact address (PLUGBOARD_ORGANIZATION_EMAIL).",
    problems: true,
    returns: SERVER_SCHEMAS['public-organization-list.json'],
    responses: { 200: 'The organizations', 401: NOT_ALLOWED },
    handler: ({ hosted, claims, config }) => hosted.publicApi.organizations.list(claims.organization_id, config.organizationEmail),
  }),
  defineRoute({
    ...common,
    method: 'post',
    access: 'read',
    paths: ['/api/v1/organizations/get_organization_info'],
    summary: "Get an organization's basic information: its name; no single sign-on or SCIM (the config API's organizations/get_organization_info).",
    body: SERVER_SCHEMAS['config-organization-id-request.json'],
    returns: SERVER_SCHEMAS['config-organization-info.json'],
    responses: {
      200: 'The organization',
      401: NOT_ALLOWED,
      404: { description: INFO_NOT_FOUND, schema: SERVER_SCHEMAS['config-not-found-response.json'] },
    },
    handler: ({ hosted, claims, body }) =>
      configNotFound(body.organizationId, hosted.publicApi.organizations.info(claims.organization_id, body.organizationId)),
  }),
  defineRoute({
    ...common,
    method: 'post',
    access: 'read',
    paths: ['/api/v1/workspaces/get_organization_info'],
    summary: "Get the basic information of a workspace's organization (the config API's workspaces/get_organization_info).",
    body: SERVER_SCHEMAS['config-workspace-id-request.json'],
    returns: SERVER_SCHEMAS['config-organization-info.json'],
    responses: {
      200: "The workspace's organization",
      401: NOT_ALLOWED,
      404: { description: 'No such workspace in the organization', schema: SERVER_SCHEMAS['config-not-found-response.json'] },
    },
    handler: ({ hosted, claims, body }) =>
      configNotFound(body.workspaceId, hosted.publicApi.organizations.infoOfWorkspace(claims.organization_id, body.workspaceId)),
  }),
];

import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { configNotFound } from './config-errors.ts';
import { NOT_ALLOWED } from './public-api.ts';

const common = { tags: ['public API'], auth: ['operator'] as const };
const NOT_FOUND = {
  description: 'No such workspace in the organization, or no such declarative source definition in it',
  schema: SERVER_SCHEMAS['config-not-found-response.json'],
};

/**
 * The config API's connector builder projects of declarative source definitions, as far as
 * publishing with testing values uses them (`/api/v1/connector_builder_projects/...`): the rules are in
 * core/hosted/cloud-api/builder-projects.ts.
 */
export const configBuilderProjectRoutes = [
  defineRoute({
    ...common,
    method: 'post',
    access: 'read',
    paths: ['/api/v1/connector_builder_projects/get_for_definition_id'],
    summary: "Get a declarative source definition's builder project (on Plugboard, of the definition's own id), which holds its testing values.",
    body: SERVER_SCHEMAS['config-builder-project-request.json'],
    returns: SERVER_SCHEMAS['config-builder-project.json'],
    responses: { 200: 'The project', 401: NOT_ALLOWED, 404: NOT_FOUND },
    handler: ({ hosted, claims, body }) => configNotFound(body.actorDefinitionId, hosted.publicApi.builderProjects.forDefinition(claims.organization_id, body)),
  }),
  defineRoute({
    ...common,
    method: 'post',
    access: 'edit',
    paths: ['/api/v1/connector_builder_projects/update_testing_values'],
    summary: "Replace a builder project's testing values: stored encrypted, answered with every secret masked.",
    body: SERVER_SCHEMAS['config-builder-testing-values-update.json'],
    returns: SERVER_SCHEMAS['config-builder-testing-values.json'],
    responses: { 200: 'The testing values, secrets masked', 401: NOT_ALLOWED, 404: NOT_FOUND },
    handler: ({ hosted, claims, body }) =>
      configNotFound(body.builderProjectId, hosted.publicApi.builderProjects.updateTestingValues(claims.organization_id, body)),
  }),
];

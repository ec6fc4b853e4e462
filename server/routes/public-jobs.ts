import { invalidField } from '../../core/errors.ts';
import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { configNotFound } from './config-errors.ts';
import { at, INVALID, NOT_ALLOWED } from './public-api.ts';
import { pageLinks, pageOf, repeatedValues } from './public-pages.ts';

const NOT_FOUND = 'No such job in the organization';
const common = { tags: ['public API'], auth: ['operator'] as const, problems: true };

/** Jobs of the public cloud API (Airbyte's wire shapes), and the config API's jobs/get: the rules are in core/hosted/cloud-api/public-jobs.ts. */
export const publicJobRoutes = [
  defineRoute({
    ...common,
    method: 'post',
    access: 'run',
    paths: at('/jobs'),
    summary: 'Start a sync of a connection, or a reset that drops its tables and forgets its state; a job runs in the background.',
    body: SERVER_SCHEMAS['public-job-create-request.json'],
    returns: SERVER_SCHEMAS['public-job.json'],
    responses: {
      200: 'The job, pending',
      400: INVALID,
      401: NOT_ALLOWED,
      404: 'No such connection in the organization',
      409: 'The connection already has a job pending or running',
    },
    handler: ({ hosted, claims, body }) => hosted.publicApi.jobs.create(claims.organization_id, body),
  }),
  defineRoute({
    ...common,
    method: 'get',
    access: 'read',
    paths: at('/jobs'),
    summary: "List the organization's jobs, newest first by default (connectionId, workspaceIds, jobType, status and creation times narrow the list).",
    query: SERVER_SCHEMAS['public-job-list-query.json'],
    returns: SERVER_SCHEMAS['public-job-list.json'],
    responses: { 200: 'A page of jobs', 400: INVALID, 401: NOT_ALLOWED, 404: 'No such connection in the organization' },
    async handler({ hosted, claims, query, ctx, config }) {
      const page = pageOf(query);
      const workspaceIds = repeatedValues(ctx, 'workspaceIds').map((id) => id.toLowerCase());
      const found = await hosted.publicApi.jobs.list(claims.organization_id, {
        ...page,
        orderBy: query.orderBy?.startsWith('updatedAt') ? 'updated_at' : 'created_at',
        order: query.orderBy?.endsWith('|ASC') ? 'ASC' : 'DESC',
        ...(query.connectionId !== undefined ? { connectionId: query.connectionId.toLowerCase() } : {}),
        ...(workspaceIds.length > 0 ? { workspaceIds } : {}),
        ...(query.jobType !== undefined ? { jobType: query.jobType } : {}),
        ...(query.status !== undefined ? { status: query.status } : {}),
        ...(query.createdAtStart !== undefined ? { createdAtStart: instant(query.createdAtStart, 'createdAtStart') } : {}),
        ...(query.createdAtEnd !== undefined ? { createdAtEnd: instant(query.createdAtEnd, 'createdAtEnd') } : {}),
        ...(query.updatedAtStart !== undefined ? { updatedAtStart: instant(query.updatedAtStart, 'updatedAtStart') } : {}),
        ...(query.updatedAtEnd !== undefined ? { updatedAtEnd: instant(query.updatedAtEnd, 'updatedAtEnd') } : {}),
      });
      return { data: found.items, ...pageLinks(ctx, config, page, found) };
    },
  }),
  defineRoute({
    ...common,
    method: 'get',
    access: 'read',
    paths: at('/jobs/:job_id'),
    summary: 'Get a job: its status, rows and bytes written so far, and how long it took or has run.',
    returns: SERVER_SCHEMAS['public-job.json'],
    responses: { 200: 'The job', 401: NOT_ALLOWED, 404: NOT_FOUND },
    handler: ({ hosted, claims, params }) => hosted.publicApi.jobs.get(claims.organization_id, params.job_id!),
  }),
  defineRoute({
    ...common,
    method: 'get',
    access: 'read',
    paths: at('/jobs/:job_id/progress'),
    summary:
      "A job's progress over its run: records and bytes written at each progress save (about one a second), the rates between them, and the previous successful run of its connection (not in Airbyte's API).",
    returns: SERVER_SCHEMAS['public-job-progress.json'],
    responses: { 200: 'The progress samples', 401: NOT_ALLOWED, 404: NOT_FOUND },
    handler: ({ hosted, claims, params }) => hosted.publicApi.jobs.progress(claims.organization_id, params.job_id!),
  }),
  defineRoute({
    ...common,
    method: 'delete',
    access: 'run',
    paths: at('/jobs/:job_id'),
    summary: 'Cancel a job: at once when it waits, at its next step when it runs (a finished job stays as it ended).',
    returns: SERVER_SCHEMAS['public-job.json'],
    responses: { 200: 'The job, cancelled or being cancelled', 401: NOT_ALLOWED, 404: NOT_FOUND },
    handler: ({ hosted, claims, params }) => hosted.publicApi.jobs.cancel(claims.organization_id, params.job_id!),
  }),
  defineRoute({
    method: 'post',
    access: 'read',
    paths: ['/api/v1/jobs/get'],
    summary:
      "Get a job with its attempts: each one's status, records and bytes synced, failure, and log lines (the config API's jobs/get); with logOffsets, each attempt's lines after those already read.",
    tags: ['public API'],
    auth: ['operator'],
    body: SERVER_SCHEMAS['config-job-id-request.json'],
    returns: SERVER_SCHEMAS['config-job-info.json'],
    responses: {
      200: 'The job and its attempts',
      401: NOT_ALLOWED,
      404: { description: NOT_FOUND, schema: SERVER_SCHEMAS['config-not-found-response.json'] },
    },
    handler: ({ hosted, claims, body }) => configNotFound(String(body.id), hosted.publicApi.jobs.info(claims.organization_id, body.id, body.logOffsets)),
  }),
];

/** A query's date-time as stored (ISO-8601 UTC); one the schema admits but no clock has (a leap second) is a 400. */
function instant(value: string, name: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw invalidField(['query', name], 'must be a date-time that exists', 'value_error.datetime');
  return new Date(time).toISOString();
}

import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { at, INVALID, NOT_ALLOWED } from './public-api.ts';

/** The streams a source offers, as the public cloud API describes them: the rules are in core/hosted/cloud-api/stream-properties.ts. */
export const publicStreamRoutes = [
  defineRoute({
    method: 'get',
    access: 'read',
    paths: at('/streams'),
    summary:
      "Describe the streams a source offers (a bare array): each one's sync modes, cursor field, primary key and fields, as a connection's configurations name them.",
    tags: ['public API'],
    auth: ['operator'],
    problems: true,
    query: SERVER_SCHEMAS['public-stream-properties-query.json'],
    returns: SERVER_SCHEMAS['public-stream-properties.json'],
    responses: {
      200: "The source's streams",
      400: `${INVALID}: no sourceId, or an id that is no UUID`,
      401: NOT_ALLOWED,
      404: 'No such source (or destination) in the organization',
    },
    handler: ({ hosted, claims, query }) =>
      hosted.publicApi.streams.properties(claims.organization_id, query.sourceId.toLowerCase(), query.destinationId?.toLowerCase()),
  }),
];

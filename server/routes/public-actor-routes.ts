import type { ActorKind } from '../../core/hosted/cloud-api/actor-kind.ts';
import type { ActorChanges, ActorCreateInput } from '../../core/hosted/cloud-api/configured-actors.ts';
import type { PublicActors } from '../../core/hosted/cloud-api/public-actors.ts';
import type { HostedRuntime } from '../../core/hosted/hosted-runtime.ts';
import type { TypedSchema } from '../../core/hosted/typed-schema.ts';
import { SERVER_SCHEMAS } from '../../core/hosted/types.generated.ts';
import { defineRoute } from '../route.ts';
import { at, INVALID, NOT_ALLOWED } from './public-api.ts';
import { pageLinks, workspacePage } from './public-pages.ts';

/** What differs between the sources' routes and the destinations'. */
export interface ActorRouteSpec<
  T,
  TCreate extends ActorCreateInput,
  TPatch extends ActorChanges,
  TPut extends Required<Pick<ActorChanges, 'name' | 'configuration'>>,
> {
  noun: 'source' | 'destination';
  api(hosted: HostedRuntime): PublicActors<ActorKind, T>;
  schemas: {
    one: TypedSchema<T>;
    list: TypedSchema<{ data: T[]; next?: string; previous?: string }>;
    create: TypedSchema<TCreate>;
    patch: TypedSchema<TPatch>;
    put: TypedSchema<TPut>;
  };
  /** What is checked at creation, for the summary. */
  checked: string;
  /** What a 400 means beyond invalid data. */
  refused: string;
}

/** The routes of sources or destinations (list, create, get, patch, put, delete): thin, the rules are in core/hosted/cloud-api/. */
export function publicActorRoutes<
  T,
  TCreate extends ActorCreateInput,
  TPatch extends ActorChanges,
  TPut extends Required<Pick<ActorChanges, 'name' | 'configuration'>>,
>(spec: ActorRouteSpec<T, TCreate, TPatch, TPut>) {
  const { noun, api, schemas } = spec;
  const collection = at(`/${noun}s`);
  const param = `${noun}_id`;
  const one = at(`/${noun}s/:${param}`);
  const notFound = `No such ${noun} in the organization`;
  const refused = `${INVALID}; or ${spec.refused}`;
  // A change of endpoint that keeps stored secrets: they never go to the new one unless given again.
  const changeRefused = `${refused}; or secret_required: a new endpoint (host, port, database, base URL) and a secret not given again`;
  const common = { tags: ['public API'], auth: ['operator'] as const, problems: true };
  return [
    defineRoute({
      ...common,
      method: 'get',
      access: 'read',
      paths: collection,
      summary: `List the organization's ${noun}s, a page at a time (workspaceIds narrows the list; includeDeleted lists deleted ones too); secrets masked.`,
      query: SERVER_SCHEMAS['public-resource-list-query.json'],
      returns: schemas.list,
      responses: { 200: `A page of ${noun}s`, 400: INVALID, 401: NOT_ALLOWED },
      async handler({ hosted, claims, query, ctx, config }) {
        const page = workspacePage(ctx, query);
        const found = await api(hosted).list(claims.organization_id, page);
        return { data: found.items, ...pageLinks(ctx, config, page, found) };
      },
    }),
    defineRoute({
      ...common,
      method: 'post',
      access: 'edit',
      paths: collection,
      summary: `Create a ${noun} in a workspace: its configuration checked against its type's schema, then ${spec.checked}.`,
      body: schemas.create,
      returns: schemas.one,
      responses: {
        200: `The ${noun}`,
        400: `${refused}; or container_definition: a custom definition naming a Docker image (nothing here runs one)`,
        401: NOT_ALLOWED,
        404: 'No such workspace in the organization',
      },
      handler: ({ hosted, claims, body }) => api(hosted).create(claims.organization_id, body),
    }),
    defineRoute({
      ...common,
      method: 'get',
      access: 'read',
      paths: one,
      summary: `Get a ${noun}; secrets masked.`,
      returns: schemas.one,
      responses: { 200: `The ${noun}`, 401: NOT_ALLOWED, 404: notFound },
      handler: ({ hosted, claims, params }) => api(hosted).get(claims.organization_id, params[param]!),
    }),
    defineRoute({
      ...common,
      method: 'patch',
      access: 'edit',
      paths: one,
      summary: `Change a ${noun}'s name or configuration fields (merged into the stored ones; a masked secret sent back is kept).`,
      body: schemas.patch,
      returns: schemas.one,
      responses: { 200: `The ${noun}`, 400: changeRefused, 401: NOT_ALLOWED, 404: notFound },
      handler: ({ hosted, claims, params, body }) => api(hosted).patch(claims.organization_id, params[param]!, body),
    }),
    defineRoute({
      ...common,
      method: 'put',
      access: 'edit',
      paths: one,
      summary: `Replace a ${noun}'s name and whole configuration (a masked secret sent back is kept).`,
      body: schemas.put,
      returns: schemas.one,
      responses: { 200: `The ${noun}`, 400: changeRefused, 401: NOT_ALLOWED, 404: notFound },
      handler: ({ hosted, claims, params, body }) => api(hosted).put(claims.organization_id, params[param]!, body),
    }),
    defineRoute({
      ...common,
      method: 'delete',
      access: 'edit',
      paths: one,
      summary: `Delete a ${noun} and the connections using it (includeDeleted lists them afterwards).`,
      status: 204,
      responses: { 204: 'Deleted', 401: NOT_ALLOWED, 404: notFound },
      async handler({ hosted, claims, params, ctx }) {
        await api(hosted).delete(claims.organization_id, params[param]!);
        ctx.status = 204;
        return undefined;
      },
    }),
  ];
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { AccessDeniedError } from '../../errors.ts';
import type { Caller } from './caller.ts';
import { covers, type Access } from './roles.ts';

/** The caller of the request being served and what its route does. */
export interface RequestAccess {
  caller: Caller;
  /** What the route declares it does: each workspace it resolves must allow that much. */
  access: Access;
}

const current = new AsyncLocalStorage<RequestAccess>();

/**
 * Serves a request as this caller: core's resolution points (a workspace looked up, a resource's
 * workspace found, a list's workspaces) check it. Outside any request (the sync worker, replication,
 * deliveries) nothing is checked: they run what a permitted request stored.
 */
export function servedAs<T>(access: RequestAccess, work: () => Promise<T>): Promise<T> {
  return current.run(access, work);
}

/** The request's caller, if any (undefined: a worker's call, or a route without a token). */
export function currentAccess(): RequestAccess | undefined {
  return current.getStore();
}

/**
 * Refuses (403) a workspace of the caller's organization that its permissions do not open for what
 * the route does (`needed` when the step needs another level than the route's, as reading a
 * resource's parent). The organization itself was checked by whoever found the workspace.
 */
export function requireWorkspace(workspaceId: string, needed?: Access): void {
  const request = current.getStore();
  if (request && !covers(request.caller.onWorkspace(workspaceId), needed ?? request.access)) throw new AccessDeniedError();
}

/** Refuses (403) a caller whose permissions on the organization itself do not allow what the route does (or `needed`). */
export function requireOrganization(needed?: Access): void {
  const request = current.getStore();
  if (request && !covers(request.caller.onOrganization(), needed ?? request.access)) throw new AccessDeniedError();
}

/**
 * The workspaces a list may show: those asked for (none: every one) that the caller may read.
 * Undefined: no narrowing (it reads every workspace, or no request is being served); an empty list:
 * it may read none of them, and the list is empty.
 */
export function readableWorkspaces(asked?: readonly string[]): string[] | undefined {
  const request = current.getStore();
  if (!request || request.caller.readsEveryWorkspace()) return asked && [...asked];
  const readable = request.caller.readableWorkspaces();
  return asked ? asked.filter((id) => readable.includes(id)) : readable;
}

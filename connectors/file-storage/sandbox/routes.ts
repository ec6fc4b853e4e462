import { aboutGet } from './handlers/about.ts';
import { changesList, changesStartPageToken } from './handlers/changes.ts';
import { commentsGet, commentsList, repliesGet, repliesList } from './handlers/comments.ts';
import type { Handler } from './handlers/context.ts';
import { drivesGet, drivesList } from './handlers/drives.ts';
import { filesExport } from './handlers/export.ts';
import { filesGet, filesList } from './handlers/files.ts';
import { permissionsGet, permissionsList } from './handlers/permissions.ts';
import { revisionsGet, revisionsList } from './handlers/revisions.ts';

/** The emulated read methods, by path template (as the Drive v3 OpenAPI document writes them). */

export const API_PREFIX = '/drive/v3';

interface Route {
  template: string;
  segments: readonly string[];
  handler: Handler;
}

const TABLE: Record<string, Handler> = {
  '/about': aboutGet,
  '/changes': changesList,
  '/changes/startPageToken': changesStartPageToken,
  '/drives': drivesList,
  '/drives/{driveId}': drivesGet,
  '/files': filesList,
  '/files/{fileId}': filesGet,
  '/files/{fileId}/export': filesExport,
  '/files/{fileId}/permissions': permissionsList,
  '/files/{fileId}/permissions/{permissionId}': permissionsGet,
  '/files/{fileId}/comments': commentsList,
  '/files/{fileId}/comments/{commentId}': commentsGet,
  '/files/{fileId}/comments/{commentId}/replies': repliesList,
  '/files/{fileId}/comments/{commentId}/replies/{replyId}': repliesGet,
  '/files/{fileId}/revisions': revisionsList,
  '/files/{fileId}/revisions/{revisionId}': revisionsGet,
};

const ROUTES: Route[] = Object.entries(TABLE).map(([path, handler]) => ({
  template: API_PREFIX + path,
  segments: (API_PREFIX + path).split('/'),
  handler,
}));

export interface RouteMatch {
  template: string;
  handler: Handler;
  params: Record<string, string>;
}

/** Literal segments win over parameters (/changes/startPageToken is not /changes/{x}). */
export function matchRoute(pathname: string): RouteMatch | undefined {
  const parts = pathname.replace(/\/+$/, '').split('/');
  let best: { route: Route; params: Record<string, string>; literals: number } | undefined;
  for (const route of ROUTES) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let literals = 0;
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      const seg = route.segments[i] as string;
      const part = parts[i] as string;
      if (seg.startsWith('{')) {
        if (part === '') ok = false;
        else {
          try {
            params[seg.slice(1, -1)] = decodeURIComponent(part);
          } catch {
            ok = false;
          }
        }
      } else if (seg === part) literals++;
      else ok = false;
    }
    if (ok && (!best || literals > best.literals)) best = { route, params, literals };
  }
  return best && { template: best.route.template, handler: best.route.handler, params: best.params };
}

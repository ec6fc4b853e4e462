import { driveNotFound, invalidValue } from '../errors.ts';
import { DRIVE, DRIVE_LIST } from '../field-schema.ts';
import { decodePageToken, fingerprint, pageOf } from '../page-token.ts';
import { compileQuery } from '../query/compile.ts';
import { drivesDialect } from '../query/dialects.ts';
import { QuerySyntaxError } from '../query/parser.ts';
import { driveToWire } from '../wire.ts';
import { defaults, json, pathParam, selectionFor, type FieldsPolicy, type Handler } from './context.ts';

/**
 * drives.list (pageSize 1-100, default 10; optional q over name, createdTime, hidden, memberCount,
 * organizerCount) and drives.get. The sandbox user is a member of every seeded drive, so
 * useDomainAdminAccess (accepted) changes nothing. Hidden drives are listed, flagged hidden.
 */

const GET_POLICY: FieldsPolicy = { shape: DRIVE, defaults: defaults('kind,id,name', DRIVE) };
const LIST_POLICY: FieldsPolicy = { shape: DRIVE_LIST, defaults: defaults('kind,nextPageToken,drives(kind,id,name)', DRIVE_LIST) };

export const drivesList: Handler = (ctx) => {
  const { params, store } = ctx;
  const sel = selectionFor(ctx, LIST_POLICY);
  const pageSize = params.pageSize(10, 100);
  params.bool('useDomainAdminAccess');
  const q = params.str('q');
  let matches: (d: (typeof store.data.drives)[number]) => boolean = () => true;
  if (q !== undefined) {
    try {
      matches = compileQuery(q, drivesDialect(store));
    } catch (err) {
      if (err instanceof QuerySyntaxError) throw invalidValue('q');
      throw err;
    }
  }
  const print = fingerprint(['drives', q]);
  const offset = decodePageToken(params.str('pageToken'), print);
  const drives = store.data.drives
    .filter(matches)
    .slice()
    .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || (a.id < b.id ? -1 : 1));
  const { page, nextPageToken } = pageOf(drives, offset, pageSize, print);
  const body: Record<string, unknown> = { kind: 'drive#driveList' };
  if (nextPageToken !== undefined) body.nextPageToken = nextPageToken;
  body.drives = page.map((d) => driveToWire(store, d));
  return json(body, sel);
};

export const drivesGet: Handler = (ctx) => {
  const sel = selectionFor(ctx, GET_POLICY);
  ctx.params.bool('useDomainAdminAccess');
  const driveId = pathParam(ctx, 'driveId');
  const drive = ctx.store.drive(driveId);
  if (!drive) throw driveNotFound(driveId);
  return json(driveToWire(ctx.store, drive), sel);
};

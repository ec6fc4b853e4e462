import { DriveError, driveNotFound, fileNotFound, invalidValue } from '../errors.ts';
import { FILE, FILE_LIST } from '../field-schema.ts';
import { subSelection, ALL } from '../fields.ts';
import { isGoogleType } from '../mime.ts';
import { parseOrderBy, sortFiles } from '../order-by.ts';
import { decodePageToken, fingerprint, pageOf } from '../page-token.ts';
import { compileQuery, type Predicate } from '../query/compile.ts';
import { filesDialect } from '../query/dialects.ts';
import { QuerySyntaxError } from '../query/parser.ts';
import type { DriveStore } from '../store.ts';
import type { DriveFileRecord } from '../types.ts';
import { fileToWire } from '../wire.ts';
import { defaults, json, pathParam, selectionFor, type FieldsPolicy, type Handler, type HandlerContext } from './context.ts';

/**
 * files.list and files.get (metadata and alt=media).
 *
 * Corpora, as Drive enforces them:
 * - `driveId` and `corpora=drive` go together ("The driveId parameter must be specified if and only
 *   if corpora is set to drive.", 400 teamDriveIdRequiresTeamDriveCorpora);
 * - `corpora=drive|allDrives` (or a driveId) needs includeItemsFromAllDrives=true (Drive answers 403);
 * - shared-drive items are listed only with includeItemsFromAllDrives=true and supportsAllDrives=true
 *   (an app that does not declare shared-drive support never sees them, and a driveId it names is
 *   "Shared drive not found");
 * - `user` (the default) and `domain` cover My Drive and items shared with me.
 * Trashed items are listed unless q excludes them ("This method returns all files by default,
 * including trashed files"). The My Drive root itself is never listed.
 */

const FILE_DEFAULT_FIELDS = 'kind,id,name,mimeType,resourceKey,driveId,teamDriveId';

const GET_POLICY: FieldsPolicy = { shape: FILE, defaults: defaults(FILE_DEFAULT_FIELDS, FILE) };
const LIST_POLICY: FieldsPolicy = { shape: FILE_LIST, defaults: defaults(`kind,nextPageToken,incompleteSearch,files(${FILE_DEFAULT_FIELDS})`, FILE_LIST) };

const CORPORA = new Set(['user', 'domain', 'drive', 'allDrives']);
const SPACES = new Set(['drive', 'appDataFolder', 'photos']);

const dialects = new WeakMap<DriveStore, ReturnType<typeof filesDialect>>();
function dialectOf(store: DriveStore) {
  let d = dialects.get(store);
  if (!d) {
    d = filesDialect(store);
    dialects.set(store, d);
  }
  return d;
}

interface Corpus {
  includeMyItems: boolean;
  /** Shared drives whose items are included (empty: none). */
  drives: ReadonlySet<string>;
}

function corpusOf(ctx: HandlerContext): Corpus {
  const { params, store } = ctx;
  const corporaParam = params.str('corpora') ?? params.str('corpus') ?? 'user';
  const corpora = corporaParam.split(',').map((c) => c.trim());
  if (corpora.some((c) => !CORPORA.has(c))) throw invalidValue('corpora');
  const driveId = params.driveId();
  const wantsDrive = corpora.includes('drive');
  if ((driveId !== undefined) !== wantsDrive) {
    throw new DriveError(400, 'teamDriveIdRequiresTeamDriveCorpora', 'The driveId parameter must be specified if and only if corpora is set to drive.', {
      location: 'driveId',
      locationType: 'parameter',
    });
  }
  const includeAll = params.includeItemsFromAllDrives();
  if ((driveId !== undefined || corpora.includes('allDrives')) && !includeAll) {
    throw new DriveError(
      403,
      'forbidden',
      'The includeItemsFromAllDrives parameter must be set to true when driveId is specified or corpora contains drive or allDrives.',
      {
        location: 'includeItemsFromAllDrives',
        locationType: 'parameter',
      },
    );
  }
  const supportsAll = params.supportsAllDrives();
  if (driveId !== undefined) {
    if (!supportsAll || !store.drive(driveId)) throw driveNotFound(driveId);
    return { includeMyItems: false, drives: new Set([driveId]) };
  }
  const drives = includeAll && supportsAll ? new Set(store.data.drives.map((d) => d.id)) : new Set<string>();
  return { includeMyItems: true, drives };
}

function spacesOf(ctx: HandlerContext): Set<string> {
  const spaces = (ctx.params.str('spaces') ?? 'drive').split(',').map((s) => s.trim());
  if (spaces.some((s) => !SPACES.has(s))) throw invalidValue('spaces');
  return new Set(spaces);
}

function queryOf(ctx: HandlerContext): Predicate<DriveFileRecord> {
  const q = ctx.params.str('q');
  if (q === undefined) return () => true;
  try {
    return compileQuery(q, dialectOf(ctx.store));
  } catch (err) {
    if (err instanceof QuerySyntaxError) throw invalidValue('q');
    throw err;
  }
}

export const filesList: Handler = (ctx) => {
  const { params, store } = ctx;
  const sel = selectionFor(ctx, LIST_POLICY);
  const pageSize = params.pageSize(100, 1000);
  const corpus = corpusOf(ctx);
  const spaces = spacesOf(ctx);
  const matches = queryOf(ctx);
  const order = parseOrderBy(params.str('orderBy'));
  const print = fingerprint(['files', params.str('q'), params.str('orderBy'), [...corpus.drives].join(','), corpus.includeMyItems, [...spaces].join(',')]);
  const offset = decodePageToken(params.str('pageToken'), print);

  // Only the "drive" space holds items in the sandbox (no appDataFolder files, photos is retired).
  const candidates = spaces.has('drive')
    ? store.data.files.filter((f) => (f.driveId === undefined ? corpus.includeMyItems : corpus.drives.has(f.driveId)) && matches(f))
    : [];
  const sorted = sortFiles(candidates, order, store);
  const { page, nextPageToken } = pageOf(sorted, offset, pageSize, print);
  const fileSel = subSelection(sel, 'files') ?? ALL;
  const body: Record<string, unknown> = { kind: 'drive#fileList' };
  if (nextPageToken !== undefined) body.nextPageToken = nextPageToken;
  body.incompleteSearch = false;
  body.files = page.map((f) => fileToWire(store, f, fileSel));
  return json(body, sel);
};

export const filesGet: Handler = (ctx) => {
  const { params, store } = ctx;
  const fileId = pathParam(ctx, 'fileId');
  const alt = params.str('alt') ?? 'json';
  const supportsAll = params.supportsAllDrives();
  params.bool('acknowledgeAbuse');
  if (alt === 'media') {
    const file = store.visibleFile(fileId, supportsAll);
    if (!file) throw fileNotFound(fileId);
    if (isGoogleType(file.mimeType) || !file.content) {
      throw new DriveError(403, 'fileNotDownloadable', 'Only files with binary content can be downloaded. Use Export with Docs Editors files.', {
        location: 'alt',
        locationType: 'parameter',
      });
    }
    return { kind: 'media', source: store.source(file.content), mimeType: file.mimeType };
  }
  if (alt !== 'json') throw invalidValue('alt');
  const sel = selectionFor(ctx, GET_POLICY);
  const file = store.visibleFile(fileId, supportsAll);
  if (!file) throw fileNotFound(fileId);
  return json(fileToWire(store, file, sel), sel);
};

import { driveNotFound, invalidValue, requiredParameter } from '../errors.ts';
import { CHANGE_LIST, START_PAGE_TOKEN } from '../field-schema.ts';
import { ALL, subSelection, type Selection } from '../fields.ts';
import type { DriveStore } from '../store.ts';
import type { ChangeRecord } from '../types.ts';
import { driveToWire, fileToWire } from '../wire.ts';
import { defaults, json, selectionFor, type FieldsPolicy, type Handler, type HandlerContext } from './context.ts';

/**
 * changes.getStartPageToken and changes.list. Page tokens are positions in the change log
 * ("1" is the beginning of time). Like Drive, a listing coalesces: an item changed several times
 * since the token appears once, at its latest change, with its current state. Pages end with
 * nextPageToken while more remain, and the last page carries newStartPageToken instead.
 *
 * Scope, as Drive's parameters define it:
 * - shared-drive file changes need includeItemsFromAllDrives=true and supportsAllDrives=true;
 * - drive changes (changeType "drive") appear for apps that set supportsAllDrives=true;
 * - driveId limits the log to one shared drive (needs supportsAllDrives, else "not found");
 * - restrictToMyDrive keeps only items in my own hierarchy;
 * - includeRemoved (default true) keeps removals.
 * The sandbox keeps one log for the user and every drive, so a drive's start token is the
 * user's (Drive issues separate numbering per drive; clients must treat tokens as opaque anyway).
 */

const START_POLICY: FieldsPolicy = { shape: START_PAGE_TOKEN, defaults: defaults('kind,startPageToken', START_PAGE_TOKEN) };
const FILE_DEFAULT = 'kind,id,name,mimeType,resourceKey,driveId,teamDriveId';
const LIST_POLICY: FieldsPolicy = {
  shape: CHANGE_LIST,
  defaults: defaults(
    `kind,nextPageToken,newStartPageToken,changes(kind,changeType,time,removed,fileId,file(${FILE_DEFAULT}),driveId,drive(kind,id,name))`,
    CHANGE_LIST,
  ),
};

const SPACES = new Set(['drive', 'appDataFolder', 'photos']);

function checkDrive(ctx: HandlerContext): string | undefined {
  const driveId = ctx.params.driveId();
  if (driveId !== undefined && (!ctx.params.supportsAllDrives() || !ctx.store.drive(driveId))) throw driveNotFound(driveId);
  return driveId;
}

export const changesStartPageToken: Handler = (ctx) => {
  const sel = selectionFor(ctx, START_POLICY);
  checkDrive(ctx);
  return json({ kind: 'drive#startPageToken', startPageToken: String(ctx.store.startPageToken()) }, sel);
};

function changeToWire(store: DriveStore, change: ChangeRecord, fileSel: Selection | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {
    kind: 'drive#change',
    changeType: change.changeType,
    type: change.changeType,
    time: change.time,
    removed: change.removed,
  };
  if (change.changeType === 'file' && change.fileId !== undefined) {
    out.fileId = change.fileId;
    const file = store.file(change.fileId);
    if (!change.removed && file) out.file = fileToWire(store, file, fileSel ?? ALL);
  } else if (change.driveId !== undefined) {
    out.driveId = change.driveId;
    out.teamDriveId = change.driveId;
    const drive = store.drive(change.driveId);
    if (!change.removed && drive) out.drive = driveToWire(store, drive);
  }
  return out;
}

export const changesList: Handler = (ctx) => {
  const { params, store } = ctx;
  const token = params.str('pageToken');
  if (token === undefined) throw requiredParameter('pageToken');
  if (!/^\d{1,15}$/.test(token) || Number(token) < 1) throw invalidValue('pageToken');
  const sel = selectionFor(ctx, LIST_POLICY);
  const pageSize = params.pageSize(100, 1000);
  const driveId = checkDrive(ctx);
  const supportsAll = params.supportsAllDrives();
  const includeAll = params.includeItemsFromAllDrives();
  const includeRemoved = params.bool('includeRemoved', true);
  const restrictToMyDrive = params.bool('restrictToMyDrive');
  params.bool('includeCorpusRemovals');
  const spaces = (params.str('spaces') ?? 'drive').split(',').map((s) => s.trim());
  if (spaces.some((s) => !SPACES.has(s))) throw invalidValue('spaces');

  // Latest change per item since the token (sorted back into log order below).
  const latest = new Map<string, ChangeRecord>();
  for (const c of store.changesFrom(Number(token))) latest.set(c.changeType === 'file' ? `file:${c.fileId}` : `drive:${c.driveId}`, c);
  const me = store.me.emailAddress;
  const visible = [...latest.values()].filter((c) => {
    if (!spaces.includes('drive')) return false;
    if (c.removed && !includeRemoved) return false;
    if (driveId !== undefined) return c.driveId === driveId;
    if (c.changeType === 'drive') return supportsAll && !restrictToMyDrive;
    if (c.driveId !== undefined) return includeAll && supportsAll && !restrictToMyDrive;
    if (restrictToMyDrive) {
      const file = c.fileId === undefined ? undefined : store.file(c.fileId);
      return file === undefined || file.ownerEmail === me;
    }
    return true;
  });
  visible.sort((a, b) => a.changeId - b.changeId);
  const page = visible.slice(0, pageSize);
  const body: Record<string, unknown> = { kind: 'drive#changeList' };
  const last = page[page.length - 1];
  if (visible.length > page.length && last) body.nextPageToken = String(last.changeId + 1);
  else body.newStartPageToken = String(Math.max(store.startPageToken(), Number(token)));
  const changeSel = subSelection(sel, 'changes') ?? ALL;
  const fileSel = subSelection(changeSel, 'file');
  body.changes = page.map((c) => changeToWire(store, c, fileSel));
  return json(body, sel);
};

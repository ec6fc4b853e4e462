import { ABOUT } from '../field-schema.ts';
import { EXPORT_FORMATS } from '../export.ts';
import { DOCX, GOOGLE_DOC, GOOGLE_DRAWING, GOOGLE_SHEET, GOOGLE_SLIDES, PPTX, XLSX } from '../mime.ts';
import type { DriveStore } from '../store.ts';
import { userToWire } from '../wire.ts';
import { json, selectionFor, type FieldsPolicy, type Handler } from './context.ts';

/** about.get: Drive requires `fields` here (`*` for everything). */

const POLICY: FieldsPolicy = { shape: ABOUT };

const IMPORT_FORMATS: Record<string, string[]> = {
  'application/msword': [GOOGLE_DOC],
  [DOCX]: [GOOGLE_DOC],
  'application/rtf': [GOOGLE_DOC],
  'application/vnd.oasis.opendocument.text': [GOOGLE_DOC],
  'text/html': [GOOGLE_DOC],
  'text/plain': [GOOGLE_DOC],
  'text/markdown': [GOOGLE_DOC],
  'application/vnd.ms-excel': [GOOGLE_SHEET],
  [XLSX]: [GOOGLE_SHEET],
  'application/vnd.oasis.opendocument.spreadsheet': [GOOGLE_SHEET],
  'text/csv': [GOOGLE_SHEET],
  'text/tab-separated-values': [GOOGLE_SHEET],
  'application/vnd.ms-powerpoint': [GOOGLE_SLIDES],
  [PPTX]: [GOOGLE_SLIDES],
  'application/vnd.oasis.opendocument.presentation': [GOOGLE_SLIDES],
  'image/png': [GOOGLE_DOC],
  'image/jpeg': [GOOGLE_DOC],
  'application/pdf': [GOOGLE_DOC],
  'application/x-vnd.oasis.opendocument.drawing': [GOOGLE_DRAWING],
};

const FOLDER_COLOR_PALETTE = [
  '#ac725e',
  '#d06b64',
  '#f83a22',
  '#fa573c',
  '#ff7537',
  '#ffad46',
  '#fad165',
  '#fbe983',
  '#b3dc6c',
  '#7bd148',
  '#16a765',
  '#42d692',
  '#92e1c0',
  '#9fe1e7',
  '#9fc6e7',
  '#4986e7',
  '#9a9cff',
  '#b99aff',
  '#a47ae2',
  '#cd74e6',
  '#f691b2',
  '#cca6ac',
  '#cabdbf',
  '#8f8f8f',
];

const THEMES = ['abacus', 'bok_choy', 'cityscape', 'clouds', 'coffee_beans', 'desk', 'fitness', 'glacier'].map((id, i) => ({
  id,
  backgroundImageLink: `https://ssl.gstatic.com/team_drive_themes/${id}_background.jpg`,
  colorRgb: FOLDER_COLOR_PALETTE[(i * 5) % FOLDER_COLOR_PALETTE.length] as string,
}));

function usage(store: DriveStore): { total: number; trash: number } {
  let total = 0;
  let trash = 0;
  for (const f of store.data.files) {
    if (f.driveId || f.ownerEmail !== store.me.emailAddress) continue;
    const size = f.content ? (f.content.kind === 'bytes' ? f.content.bytes.length : f.content.size) : (f.editorSize ?? 0);
    total += size;
    if (f.trashed) trash += size;
  }
  return { total, trash };
}

export const aboutGet: Handler = (ctx) => {
  const sel = selectionFor(ctx, POLICY);
  const { store } = ctx;
  const used = usage(store);
  return json(
    {
      kind: 'drive#about',
      user: userToWire(store.me, store.me),
      storageQuota: {
        limit: String(15 * 1024 ** 3),
        usage: String(used.total),
        usageInDrive: String(used.total),
        usageInDriveTrash: String(used.trash),
      },
      importFormats: IMPORT_FORMATS,
      exportFormats: Object.fromEntries(Object.entries(EXPORT_FORMATS).map(([type, formats]) => [type, formats.map((f) => f.mimeType)])),
      maxImportSizes: {
        [GOOGLE_DOC]: String(10 * 1024 * 1024),
        [GOOGLE_SHEET]: String(100 * 1024 * 1024),
        [GOOGLE_SLIDES]: String(100 * 1024 * 1024),
        [GOOGLE_DRAWING]: String(2 * 1024 * 1024),
      },
      maxUploadSize: String(5_242_880_000_000),
      appInstalled: false,
      folderColorPalette: FOLDER_COLOR_PALETTE,
      driveThemes: THEMES,
      canCreateDrives: true,
      canCreateTeamDrives: true,
      teamDriveThemes: THEMES,
    },
    sel,
  );
};

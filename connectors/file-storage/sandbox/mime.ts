/** MIME types Drive uses, and the links Drive derives from a file's type and id. */

export const FOLDER = 'application/vnd.google-apps.folder';
export const SHORTCUT = 'application/vnd.google-apps.shortcut';
export const GOOGLE_DOC = 'application/vnd.google-apps.document';
export const GOOGLE_SHEET = 'application/vnd.google-apps.spreadsheet';
export const GOOGLE_SLIDES = 'application/vnd.google-apps.presentation';
export const GOOGLE_DRAWING = 'application/vnd.google-apps.drawing';

export const GOOGLE_APPS_PREFIX = 'application/vnd.google-apps.';

export const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

/** Every application/vnd.google-apps.* type (folders and shortcuts included) has no downloadable bytes. */
export function isGoogleType(mimeType: string): boolean {
  return mimeType.startsWith(GOOGLE_APPS_PREFIX);
}

/** The Docs editors types (the ones files.export converts). */
export function isEditorType(mimeType: string): boolean {
  return mimeType === GOOGLE_DOC || mimeType === GOOGLE_SHEET || mimeType === GOOGLE_SLIDES || mimeType === GOOGLE_DRAWING;
}

/** Binary file types the generator uses: mime type, extension, and a magic header for the bytes. */
export interface BinaryKind {
  mimeType: string;
  extension: string;
  /** First bytes of the content, so sniffers recognise the type. */
  magic: string;
  /** Typical size range in bytes. */
  minSize: number;
  maxSize: number;
}

export const BINARY_KINDS: readonly BinaryKind[] = [
  { mimeType: 'application/pdf', extension: 'pdf', magic: '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', minSize: 20_000, maxSize: 900_000 },
  { mimeType: 'image/png', extension: 'png', magic: '\x89PNG\r\n\x1a\n', minSize: 8_000, maxSize: 600_000 },
  { mimeType: 'image/jpeg', extension: 'jpg', magic: '\xff\xd8\xff\xe0\x00\x10JFIF\x00', minSize: 10_000, maxSize: 700_000 },
  { mimeType: 'application/zip', extension: 'zip', magic: 'PK\x03\x04', minSize: 5_000, maxSize: 1_500_000 },
  { mimeType: 'application/octet-stream', extension: 'bin', magic: '', minSize: 1_000, maxSize: 400_000 },
  { mimeType: 'video/mp4', extension: 'mp4', magic: '\x00\x00\x00\x18ftypmp42', minSize: 200_000, maxSize: 2_500_000 },
  { mimeType: DOCX, extension: 'docx', magic: 'PK\x03\x04', minSize: 6_000, maxSize: 200_000 },
  { mimeType: XLSX, extension: 'xlsx', magic: 'PK\x03\x04', minSize: 6_000, maxSize: 200_000 },
];

export function binaryKind(mimeType: string): BinaryKind | undefined {
  return BINARY_KINDS.find((k) => k.mimeType === mimeType);
}

/** Text file types whose exact bytes the generator writes. */
export const TEXT_KINDS = [
  { mimeType: 'text/plain', extension: 'txt' },
  { mimeType: 'text/csv', extension: 'csv' },
  { mimeType: 'text/markdown', extension: 'md' },
  { mimeType: 'application/json', extension: 'json' },
] as const;

/** "report.final.pdf" → "pdf"; "archive.tar.gz" has full extension "tar.gz" (Drive's fullFileExtension). */
export function extensionsOf(name: string): { fileExtension?: string; fullFileExtension?: string } {
  const dot = name.indexOf('.', 1);
  if (dot < 0) return {};
  const full = name.slice(dot + 1);
  const last = name.slice(name.lastIndexOf('.') + 1);
  // Drive keeps only extension-looking suffixes (short, alphanumeric parts).
  const parts = full.split('.');
  const kept: string[] = [];
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i] as string;
    if (!/^[A-Za-z0-9]{1,5}$/.test(part)) break;
    kept.unshift(part);
  }
  if (kept.length === 0) return {};
  return { fileExtension: last, fullFileExtension: kept.join('.') };
}

export function webViewLink(id: string, mimeType: string): string {
  switch (mimeType) {
    case FOLDER:
      return `https://drive.google.com/drive/folders/${id}`;
    case GOOGLE_DOC:
      return `https://docs.google.com/document/d/${id}/edit?usp=drivesdk`;
    case GOOGLE_SHEET:
      return `https://docs.google.com/spreadsheets/d/${id}/edit?usp=drivesdk`;
    case GOOGLE_SLIDES:
      return `https://docs.google.com/presentation/d/${id}/edit?usp=drivesdk`;
    case GOOGLE_DRAWING:
      return `https://docs.google.com/drawings/d/${id}/edit?usp=drivesdk`;
    default:
      return `https://drive.google.com/file/d/${id}/view?usp=drivesdk`;
  }
}

export function iconLink(mimeType: string): string {
  return `https://drive-thirdparty.googleusercontent.com/16/type/${mimeType}`;
}

/** Drive's export link per editor type and target format (exportFormat is the usual extension). */
export function exportLink(id: string, editorType: string, extension: string): string {
  switch (editorType) {
    case GOOGLE_DOC:
      return `https://docs.google.com/feeds/download/documents/export/Export?id=${id}&exportFormat=${extension}`;
    case GOOGLE_SHEET:
      return `https://docs.google.com/spreadsheets/export?id=${id}&exportFormat=${extension}`;
    case GOOGLE_SLIDES:
      return `https://docs.google.com/feeds/download/presentations/Export?id=${id}&exportFormat=${extension}`;
    default:
      return `https://docs.google.com/feeds/download/drawings/Export?id=${id}&exportFormat=${extension}`;
  }
}

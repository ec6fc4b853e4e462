import { documentParagraphs, drawingShapes, sheetRows, slides, type Slide } from './documents.ts';
import { jpegStub, pdf, png, rtf, xmlEscape, zip, type ZipEntry } from './formats.ts';
import { DOCX, GOOGLE_DOC, GOOGLE_DRAWING, GOOGLE_SHEET, GOOGLE_SLIDES, PPTX, XLSX } from './mime.ts';
import type { DriveFileRecord } from './types.ts';

/**
 * files.export: which conversions Drive offers per editor type (its published export table, also
 * sent as about.exportFormats), and deterministic bodies for each. Drive refuses exports whose
 * result exceeds 10 MB; the body is rendered (buffered, at most that limit) and measured.
 */

export const EXPORT_SIZE_LIMIT = 10 * 1024 * 1024;

export interface ExportFormat {
  mimeType: string;
  /** The `exportFormat` value used in exportLinks. */
  extension: string;
}

const ODT = 'application/vnd.oasis.opendocument.text';
const ODS = 'application/vnd.oasis.opendocument.spreadsheet';
const ODS_LEGACY = 'application/x-vnd.oasis.opendocument.spreadsheet';
const ODP = 'application/vnd.oasis.opendocument.presentation';
const EPUB = 'application/epub+zip';

export const EXPORT_FORMATS: Readonly<Record<string, readonly ExportFormat[]>> = {
  [GOOGLE_DOC]: [
    { mimeType: 'application/rtf', extension: 'rtf' },
    { mimeType: ODT, extension: 'odt' },
    { mimeType: 'text/html', extension: 'html' },
    { mimeType: 'application/pdf', extension: 'pdf' },
    { mimeType: 'text/markdown', extension: 'md' },
    { mimeType: EPUB, extension: 'epub' },
    { mimeType: 'application/zip', extension: 'zip' },
    { mimeType: DOCX, extension: 'docx' },
    { mimeType: 'text/plain', extension: 'txt' },
  ],
  [GOOGLE_SHEET]: [
    { mimeType: ODS_LEGACY, extension: 'ods' },
    { mimeType: 'text/tab-separated-values', extension: 'tsv' },
    { mimeType: 'application/pdf', extension: 'pdf' },
    { mimeType: XLSX, extension: 'xlsx' },
    { mimeType: 'text/csv', extension: 'csv' },
    { mimeType: 'application/zip', extension: 'zip' },
    { mimeType: ODS, extension: 'ods' },
  ],
  [GOOGLE_SLIDES]: [
    { mimeType: ODP, extension: 'odp' },
    { mimeType: 'application/pdf', extension: 'pdf' },
    { mimeType: PPTX, extension: 'pptx' },
    { mimeType: 'text/plain', extension: 'txt' },
    { mimeType: 'image/jpeg', extension: 'jpg' },
    { mimeType: 'image/png', extension: 'png' },
    { mimeType: 'image/svg+xml', extension: 'svg' },
  ],
  [GOOGLE_DRAWING]: [
    { mimeType: 'image/svg+xml', extension: 'svg' },
    { mimeType: 'image/png', extension: 'png' },
    { mimeType: 'application/pdf', extension: 'pdf' },
    { mimeType: 'image/jpeg', extension: 'jpg' },
  ],
  // Types the sandbox does not seed, listed because about.exportFormats lists them.
  'application/vnd.google-apps.script': [{ mimeType: 'application/vnd.google-apps.script+json', extension: 'json' }],
  'application/vnd.google-apps.form': [{ mimeType: 'application/zip', extension: 'zip' }],
  'application/vnd.google-apps.jam': [{ mimeType: 'application/pdf', extension: 'pdf' }],
  'application/vnd.google-apps.site': [{ mimeType: 'text/plain', extension: 'txt' }],
  'application/vnd.google-apps.vid': [{ mimeType: 'video/mp4', extension: 'mp4' }],
};

export function exportFormatsOf(mimeType: string): readonly ExportFormat[] {
  return Object.hasOwn(EXPORT_FORMATS, mimeType) ? (EXPORT_FORMATS[mimeType] ?? []) : [];
}

const UTF8_BOM = '\ufeff';

/** Wraps paragraphs to PDF text lines. */
function wrap(paragraphs: readonly string[], width = 95): string[] {
  const lines: string[] = [];
  for (const p of paragraphs) {
    let line = '';
    for (const word of p.split(' ')) {
      if (line.length + word.length + 1 > width && line !== '') {
        lines.push(line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    lines.push(line, '');
  }
  return lines;
}

function xml(text: string): Buffer {
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${text}`, 'utf8');
}

function html(title: string, bodyHtml: string): string {
  return `<html><head><meta content="text/html; charset=UTF-8" http-equiv="content-type"><title>${xmlEscape(title)}</title></head><body>${bodyHtml}</body></html>`;
}

function htmlZip(file: DriveFileRecord, bodyHtml: string): Buffer {
  const base = file.name.replace(/[^A-Za-z0-9 _-]/g, '').trim() || 'document';
  return zip([{ name: `${base}.html`, data: Buffer.from(html(file.name, bodyHtml), 'utf8') }]);
}

function contentTypes(overrides: Record<string, string>): ZipEntry {
  const parts = Object.entries(overrides)
    .map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`)
    .join('');
  return {
    name: '[Content_Types].xml',
    data: xml(
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${parts}</Types>`,
    ),
  };
}

function rootRels(target: string): ZipEntry {
  return {
    name: '_rels/.rels',
    data: xml(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="${target}"/></Relationships>`,
    ),
  };
}

/** OpenDocument packages: the stored "mimetype" entry must come first. */
function openDocument(mimeType: string, bodyXml: string): Buffer {
  return zip([
    { name: 'mimetype', data: Buffer.from(mimeType, 'ascii') },
    {
      name: 'META-INF/manifest.xml',
      data: xml(
        `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mimeType}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
      ),
    },
    {
      name: 'content.xml',
      data: xml(
        `<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" office:version="1.2"><office:body>${bodyXml}</office:body></office:document-content>`,
      ),
    },
  ]);
}

function renderDocument(seed: number, file: DriveFileRecord, target: string): Buffer | undefined {
  const paragraphs = documentParagraphs(seed, file);
  switch (target) {
    case 'text/plain':
      // Docs writes plain-text exports with a UTF-8 BOM and CRLF line ends.
      return Buffer.from(UTF8_BOM + paragraphs.join('\r\n\r\n'), 'utf8');
    case 'text/markdown':
      return Buffer.from(`${paragraphs.join('\n\n')}\n`, 'utf8');
    case 'text/html':
      return Buffer.from(html(file.name, paragraphs.map((p) => `<p>${xmlEscape(p)}</p>`).join('')), 'utf8');
    case 'application/zip':
      return htmlZip(file, paragraphs.map((p) => `<p>${xmlEscape(p)}</p>`).join(''));
    case 'application/pdf':
      return pdf(file.name, wrap(paragraphs));
    case 'application/rtf':
      return rtf(file.name, paragraphs);
    case DOCX:
      return zip([
        contentTypes({ '/word/document.xml': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml' }),
        rootRels('word/document.xml'),
        {
          name: 'word/document.xml',
          data: xml(
            `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs
              .map((p) => `<w:p><w:r><w:t xml:space="preserve">${xmlEscape(p)}</w:t></w:r></w:p>`)
              .join('')}</w:body></w:document>`,
          ),
        },
      ]);
    case ODT:
      return openDocument(ODT, `<office:text>${paragraphs.map((p) => `<text:p>${xmlEscape(p)}</text:p>`).join('')}</office:text>`);
    case EPUB:
      return zip([
        { name: 'mimetype', data: Buffer.from(EPUB, 'ascii') },
        {
          name: 'META-INF/container.xml',
          data: xml(
            '<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
          ),
        },
        {
          name: 'OEBPS/content.opf',
          data: xml(
            `<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">${file.id}</dc:identifier><dc:title>${xmlEscape(file.name)}</dc:title><dc:language>en</dc:language></metadata><manifest><item id="c1" href="chapter.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>`,
          ),
        },
        { name: 'OEBPS/chapter.xhtml', data: Buffer.from(html(file.name, paragraphs.map((p) => `<p>${xmlEscape(p)}</p>`).join('')), 'utf8') },
      ]);
    default:
      return undefined;
  }
}

function csvCell(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function renderSheet(seed: number, file: DriveFileRecord, target: string): Buffer | undefined {
  const rows = sheetRows(seed, file);
  const table = () => `<table>${rows.map((r) => `<tr>${r.map((c) => `<td>${xmlEscape(c)}</td>`).join('')}</tr>`).join('')}</table>`;
  switch (target) {
    case 'text/csv':
      // Sheets exports only the first sheet, CRLF line ends, RFC 4180 quoting.
      return Buffer.from(rows.map((r) => r.map(csvCell).join(',')).join('\r\n'), 'utf8');
    case 'text/tab-separated-values':
      return Buffer.from(rows.map((r) => r.map((c) => c.replace(/[\t\r\n]/g, ' ')).join('\t')).join('\r\n'), 'utf8');
    case 'application/pdf':
      return pdf(
        file.name,
        rows.map((r) => r.join('    ')),
      );
    case 'application/zip':
      return htmlZip(file, table());
    case XLSX:
      return zip([
        contentTypes({
          '/xl/workbook.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
          '/xl/worksheets/sheet1.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml',
        }),
        rootRels('xl/workbook.xml'),
        {
          name: 'xl/workbook.xml',
          data: xml(
            '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
          ),
        },
        {
          name: 'xl/_rels/workbook.xml.rels',
          data: xml(
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
          ),
        },
        {
          name: 'xl/worksheets/sheet1.xml',
          data: xml(
            `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows
              .map(
                (r, y) =>
                  `<row r="${y + 1}">${r.map((c, x) => `<c r="${columnName(x)}${y + 1}" t="inlineStr"><is><t>${xmlEscape(c)}</t></is></c>`).join('')}</row>`,
              )
              .join('')}</sheetData></worksheet>`,
          ),
        },
      ]);
    case ODS:
    case ODS_LEGACY:
      return openDocument(
        ODS,
        `<office:spreadsheet><table:table table:name="Sheet1">${rows
          .map((r) => `<table:table-row>${r.map((c) => `<table:table-cell><text:p>${xmlEscape(c)}</text:p></table:table-cell>`).join('')}</table:table-row>`)
          .join('')}</table:table></office:spreadsheet>`,
      );
    default:
      return undefined;
  }
}

function slideSvg(title: string, lines: readonly string[], color: number): string {
  const text = lines.map((l, i) => `<text x="40" y="${120 + i * 32}" font-size="20">${xmlEscape(l)}</text>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="540" viewBox="0 0 960 540"><rect width="960" height="540" fill="#${color.toString(16).padStart(6, '0')}"/><text x="40" y="70" font-size="32">${xmlEscape(title)}</text>${text}</svg>`;
}

function renderSlides(seed: number, file: DriveFileRecord, target: string): Buffer | undefined {
  const deck = slides(seed, file);
  const first = deck[0] as Slide;
  switch (target) {
    case 'text/plain':
      return Buffer.from(deck.map((s) => [s.title, ...s.bullets].join('\n')).join('\n\n'), 'utf8');
    case 'application/pdf':
      return pdf(
        file.name,
        deck.flatMap((s) => [s.title, ...s.bullets.map((b) => `  - ${b}`), '']),
      );
    case 'image/png':
      return png(320, 180, [0xf8f9fa, 0x1a73e8, 0xf8f9fa]);
    case 'image/jpeg':
      return jpegStub(`${file.name}: ${first.title}`);
    case 'image/svg+xml':
      return Buffer.from(slideSvg(first.title, first.bullets, 0xffffff), 'utf8');
    case PPTX:
      return zip([
        contentTypes({
          '/ppt/presentation.xml': 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
          ...Object.fromEntries(
            deck.map((_, i) => [`/ppt/slides/slide${i + 1}.xml`, 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml']),
          ),
        }),
        rootRels('ppt/presentation.xml'),
        {
          name: 'ppt/presentation.xml',
          data: xml(
            `<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><p:sldIdLst>${deck
              .map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`)
              .join('')}</p:sldIdLst></p:presentation>`,
          ),
        },
        ...deck.map((s, i) => ({
          name: `ppt/slides/slide${i + 1}.xml`,
          data: xml(
            `<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:cSld><p:spTree>${[
              s.title,
              ...s.bullets,
            ]
              .map((t) => `<p:sp><p:txBody><a:p><a:r><a:t>${xmlEscape(t)}</a:t></a:r></a:p></p:txBody></p:sp>`)
              .join('')}</p:spTree></p:cSld></p:sld>`,
          ),
        })),
      ]);
    case ODP:
      return openDocument(
        ODP,
        `<office:presentation>${deck
          .map((s, i) => `<draw:page draw:name="page${i + 1}">${[s.title, ...s.bullets].map((t) => `<text:p>${xmlEscape(t)}</text:p>`).join('')}</draw:page>`)
          .join('')}</office:presentation>`,
      );
    default:
      return undefined;
  }
}

function renderDrawing(seed: number, file: DriveFileRecord, target: string): Buffer | undefined {
  const shapes = drawingShapes(seed, file);
  switch (target) {
    case 'image/svg+xml': {
      const boxes = shapes
        .map(
          (s, i) =>
            `<rect x="${20 + i * 150}" y="40" width="130" height="80" fill="#${s.color.toString(16).padStart(6, '0')}"/><text x="${30 + i * 150}" y="85" font-size="12">${xmlEscape(s.label)}</text>`,
        )
        .join('');
      return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${40 + shapes.length * 150}" height="160">${boxes}</svg>`, 'utf8');
    }
    case 'image/png':
      return png(
        40 + shapes.length * 30,
        120,
        shapes.map((s) => s.color),
      );
    case 'image/jpeg':
      return jpegStub(`${file.name}: ${shapes.map((s) => s.label).join(', ')}`);
    case 'application/pdf':
      return pdf(
        file.name,
        shapes.map((s) => s.label),
      );
    default:
      return undefined;
  }
}

/** The export body, or undefined when the editor type does not convert to `target`. */
export function renderExport(seed: number, file: DriveFileRecord, target: string): Buffer | undefined {
  switch (file.mimeType) {
    case GOOGLE_DOC:
      return renderDocument(seed, file, target);
    case GOOGLE_SHEET:
      return renderSheet(seed, file, target);
    case GOOGLE_SLIDES:
      return renderSlides(seed, file, target);
    case GOOGLE_DRAWING:
      return renderDrawing(seed, file, target);
    default:
      return undefined;
  }
}

/** Renders exports once per (file, format); over-limit results are remembered by size only. */
export class ExportCache {
  private readonly entries = new Map<string, Buffer | number>();

  constructor(
    private readonly seed: number,
    private readonly capacity = 24,
  ) {}

  /** The body, `tooLarge` with its size, or undefined when the conversion does not exist. */
  get(file: DriveFileRecord, target: string): { body: Buffer } | { tooLarge: number } | undefined {
    const key = `${file.id}\u0000${target}`;
    let hit = this.entries.get(key);
    if (hit === undefined) {
      const body = renderExport(this.seed, file, target);
      if (!body) return undefined;
      hit = body.length > EXPORT_SIZE_LIMIT ? body.length : body;
      this.entries.set(key, hit);
      if (this.entries.size > this.capacity) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
    }
    return typeof hit === 'number' ? { tooLarge: hit } : { body: hit };
  }
}

import { GOOGLE_DOC, GOOGLE_DRAWING, GOOGLE_SHEET, GOOGLE_SLIDES } from './mime.ts';
import { Random } from './prng.ts';
import type { DriveFileRecord } from './types.ts';
import { PRODUCTS, REGIONS, sentence, textOfSize, TOPICS } from './vocab.ts';

/**
 * The logical content of Docs editor files (what the user typed), derived from (seed, file id,
 * exportBytes). Exports render it into each target format; full-text search indexes it.
 */

export interface Slide {
  title: string;
  bullets: string[];
}

export interface DrawingShape {
  label: string;
  color: number;
}

export function documentText(seed: number, file: DriveFileRecord): string {
  return textOfSize(Random.derive(seed, `doc:${file.id}`), file.exportBytes ?? 2000);
}

export function documentParagraphs(seed: number, file: DriveFileRecord): string[] {
  return documentText(seed, file).split('\n\n');
}

export const SHEET_HEADER = ['Region', 'Product', 'Month', 'Units', 'Revenue', 'Note'];

/** The first sheet: a header row, then one row per ~48 bytes of exportBytes. */
export function sheetRows(seed: number, file: DriveFileRecord): string[][] {
  const rng = Random.derive(seed, `sheet:${file.id}`);
  const count = Math.max(5, Math.floor((file.exportBytes ?? 2000) / 48));
  const rows: string[][] = [SHEET_HEADER.slice()];
  for (let i = 0; i < count; i++) {
    const month = `2024-${String((i % 12) + 1).padStart(2, '0')}`;
    const units = rng.int(1, 900);
    const revenue = (units * rng.int(500, 9000)) / 100;
    const note = rng.chance(0.2) ? `Includes "${rng.pick(PRODUCTS)}" bundle, discounted` : '';
    rows.push([rng.pick(REGIONS), rng.pick(PRODUCTS), month, String(units), revenue.toFixed(2), note]);
  }
  return rows;
}

export function slides(seed: number, file: DriveFileRecord): Slide[] {
  const rng = Random.derive(seed, `slides:${file.id}`);
  const count = Math.max(3, Math.floor((file.exportBytes ?? 2000) / 400));
  const out: Slide[] = [];
  for (let i = 0; i < count; i++) {
    const bullets: string[] = [];
    const n = rng.int(2, 5);
    for (let b = 0; b < n; b++) bullets.push(sentence(rng, 4, 10));
    out.push({ title: i === 0 ? file.name : `${rng.pick(TOPICS)} ${i + 1}`, bullets });
  }
  return out;
}

export function drawingShapes(seed: number, file: DriveFileRecord): DrawingShape[] {
  const rng = Random.derive(seed, `drawing:${file.id}`);
  const n = rng.int(3, 6);
  const out: DrawingShape[] = [];
  for (let i = 0; i < n; i++) out.push({ label: `${rng.pick(TOPICS)} service`, color: rng.int(0x202020, 0xefefef) });
  return out;
}

/** Text the full-text index sees for an editor file (bounded, like Drive's own indexing). */
export function indexableText(seed: number, file: DriveFileRecord, limit: number): string {
  switch (file.mimeType) {
    case GOOGLE_DOC:
      // Generating only the first `limit` bytes gives the same prefix: the text is a growing stream.
      return textOfSize(Random.derive(seed, `doc:${file.id}`), Math.min(limit, file.exportBytes ?? 2000));
    case GOOGLE_SHEET:
      return sheetRows(seed, file)
        .map((r) => r.join(' '))
        .join('\n')
        .slice(0, limit);
    case GOOGLE_SLIDES:
      return slides(seed, file)
        .map((s) => `${s.title}\n${s.bullets.join('\n')}`)
        .join('\n')
        .slice(0, limit);
    case GOOGLE_DRAWING:
      return drawingShapes(seed, file)
        .map((s) => s.label)
        .join('\n');
    default:
      return '';
  }
}

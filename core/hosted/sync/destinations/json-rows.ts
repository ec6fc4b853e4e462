import { carriedChanges, type MapperChange } from '../mappers/record-changes.ts';
import { copyEscaped } from './copy-text.ts';
import type { ColumnType, TableSpec, WriteContext } from './destination.ts';
import type { JsonBatch } from './json-batch.ts';
import { BatchRows, INT64_LIMIT, jsonFits, type SqlValue, textFits } from './row-encoding.ts';
import { META_COLUMN, type SqlDialect } from './table-columns.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COPY_NULL = '\\N';

/**
 * A batch's rows straight from its records' JSON texts (json-batch.ts), the same rows as
 * `encodeRows(table, readJsonBatch(batch))` (a test holds them equal) without parsing each record
 * into objects: a record's text is JSON.stringify's (compact, each nested value written as
 * JSON.stringify writes it alone), so a JSON column's value is its slice of the text, and a string
 * without escapes the slice between its quotes. Measured on bench:sync: parsing the records and
 * serializing their JSON columns again cost the destinations' threads more than all the rest, and
 * most of their garbage.
 */
export function rowsFromJson(table: TableSpec, batch: JsonBatch, context: WriteContext, dialect: SqlDialect): SqlValue[][] {
  const rows = new BatchRows<SqlValue[]>(table, context, (values, added) => [...values, ...added]);
  scanBatch(table, batch, dialect, undefined, (values, carried, nulled) => rows.add(values, carried, nulled));
  return rows.rows;
}

/** The same rows as COPY text lines (copy-text.ts's format, each ending in a newline), for PostgreSQL's loader. */
export function copyLinesFromJson(table: TableSpec, batch: JsonBatch, context: WriteContext, dialect: SqlDialect): string[] {
  const width = table.columns.length;
  // The values' COPY text, then the added values': one array, joined into each line.
  const copies: string[] = new Array(width + 3);
  const lines = new BatchRows<string>(table, context, (_values, [id, extractedAt, meta]) => {
    copies[width] = id;
    copies[width + 1] = extractedAt;
    copies[width + 2] = `${copyEscaped(meta)}\n`;
    // One flat string per line: concatenating value by value builds a tree of strings, garbage to collect.
    return copies.join('\t');
  });
  scanBatch(table, batch, dialect, copies, (values, carried, nulled) => lines.add(values, carried, nulled));
  return lines.rows;
}

/** A row being scanned: its values as encodeRows gives them, and (for COPY) as COPY's text writes them. */
interface ScannedRow {
  values: SqlValue[];
  copies: string[] | undefined;
}

/**
 * Each record of the batch scanned into its column values (and, given `copies`, their COPY text),
 * reused record after record, and handed to `take` with the mappers' changes and the fields that
 * did not fit.
 */
function scanBatch(
  table: TableSpec,
  batch: JsonBatch,
  dialect: SqlDialect,
  copies: string[] | undefined,
  take: (values: SqlValue[], carried: MapperChange[] | undefined, nulled: string[] | undefined) => void,
): void {
  const columnOf = new Map(table.columns.map((column, index) => [column.name, index]));
  const types = table.columns.map((column) => column.type);
  const bytes = Buffer.from(batch.buffer);
  const row: ScannedRow = { values: new Array(types.length), copies };
  let start = 0;
  for (const end of batch.ends) {
    const text = bytes.toString('utf8', start, end);
    start = end;
    row.values.fill(null);
    copies?.fill(COPY_NULL, 0, types.length);
    let metaText: string | undefined;
    let nulled: string[] | undefined;
    forEachField(text, (name, from, to) => {
      const index = columnOf.get(name);
      if (index === undefined) {
        if (name === META_COLUMN) metaText = text.slice(from, to);
        return;
      }
      if (encodeValue(types[index]!, text, from, to, dialect, row, index)) return;
      nulled ??= [];
      nulled.push(name);
    });
    take(row.values, metaText === undefined ? undefined : carriedChanges({ [META_COLUMN]: JSON.parse(metaText) as unknown }), nulled);
  }
}

/** Calls `visit` with each top-level field's name and where its value's text starts and ends, in a record's compact JSON. */
function forEachField(text: string, visit: (name: string, from: number, to: number) => void): void {
  let at = 1;
  if (text.charCodeAt(at) === CLOSE_BRACE) return;
  for (;;) {
    const nameEnd = stringEnd(text, at);
    const raw = text.slice(at + 1, nameEnd);
    const name = raw.includes('\\') ? (JSON.parse(text.slice(at, nameEnd + 1)) as string) : raw;
    const from = nameEnd + 2;
    const to = valueEnd(text, from);
    visit(name, from, to);
    if (text.charCodeAt(to) !== COMMA) return;
    at = to + 1;
  }
}

/** The index of the quote closing the string that opens at `at`. */
function stringEnd(text: string, at: number): number {
  let quote = text.indexOf('"', at + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
}

/** Where the value starting at `from` ends (exclusive): its closing quote or bracket, or the comma or brace after a scalar. */
function valueEnd(text: string, from: number): number {
  const first = text.charCodeAt(from);
  if (first === QUOTE) return stringEnd(text, from) + 1;
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let at = from; ; at++) {
      const char = text.charCodeAt(at);
      if (char === QUOTE) at = stringEnd(text, at);
      else if (char === OPEN_BRACE || char === OPEN_BRACKET) depth++;
      else if ((char === CLOSE_BRACE || char === CLOSE_BRACKET) && --depth === 0) return at + 1;
    }
  }
  let at = from;
  while (at < text.length && text.charCodeAt(at) !== COMMA && text.charCodeAt(at) !== CLOSE_BRACE) at++;
  return at;
}

/**
 * Puts a value in the row as its column takes it (encodeRows's encoders, on the JSON text), and its
 * COPY text when the row is for COPY; false when it does not fit the column, which leaves it NULL.
 */
function encodeValue(type: ColumnType, text: string, from: number, to: number, dialect: SqlDialect, row: ScannedRow, index: number): boolean {
  const token = text.slice(from, to);
  if (token === 'null') return true;
  const first = text.charCodeAt(from);
  const isNumber = first === 0x2d || (first >= 0x30 && first <= 0x39);
  let value: SqlValue;
  // The value's COPY text, when it is not the value's own text escaped.
  let copy: string | undefined;
  switch (type) {
    case 'string': {
      // An object, array, number or boolean is written as its JSON text (JSON.stringify's is well-formed, without U+0000).
      if (first !== QUOTE) {
        value = token;
        break;
      }
      const inner = token.slice(1, -1);
      // Without an escape, the text between the quotes is the string itself, with nothing COPY escapes.
      if (!inner.includes('\\')) {
        value = inner;
        copy = inner;
        break;
      }
      const parsed = JSON.parse(token) as string;
      if (!textFits(parsed, dialect)) return false;
      value = parsed.toWellFormed();
      break;
    }
    case 'integer':
      value = isNumber ? Number(token) : Number.NaN;
      if (!(Number.isInteger(value) && value >= -INT64_LIMIT && value < INT64_LIMIT)) return false;
      copy = token;
      break;
    case 'number':
      if (!isNumber) return false;
      value = Number(token);
      copy = token;
      break;
    case 'boolean':
      if (token !== 'true' && token !== 'false') return false;
      value = dialect.booleans === 'integer' ? Number(token === 'true') : token === 'true';
      copy = String(value);
      break;
    case 'json':
      if (!jsonFits(token, dialect)) return false;
      value = token;
      break;
  }
  row.values[index] = value;
  if (row.copies) row.copies[index] = copy ?? copyEscaped(value as string);
  return true;
}

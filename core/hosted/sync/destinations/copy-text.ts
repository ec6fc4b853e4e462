import { maxUtf8Bytes, withRoom } from './buffer-room.ts';
import type { SqlValue } from './row-encoding.ts';

/** The characters COPY's text format escapes in a value: its own escape, the column and row separators. */
const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_EVERYWHERE = /[\\\t\n\r]/g;
const ESCAPED: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escaped = (char: string) => ESCAPED[char]!;

/** Enough for a batch of 1,000 rows of a few kilobytes; a larger batch grows the buffer. */
const INITIAL_BYTES = 4 * 2 ** 20;

/**
 * Rows in PostgreSQL's COPY text format, as UTF-8 in a buffer reused batch after batch: each row
 * built as a small string and written into it, never one string of the whole batch (megabytes
 * allocated and collected in the old generation each batch, which costs the event loop more than
 * building it).
 */
export class CopyTextWriter {
  private buffer: Buffer = Buffer.allocUnsafe(INITIAL_BYTES);

  /** The rows' COPY data; valid until the next call, which reuses its bytes. */
  write(rows: SqlValue[][]): Buffer {
    return this.writeLines(rows.map(copyLine));
  }

  /** Lines already in COPY's text format, each ending in a newline (json-rows.ts builds them). */
  writeLines(lines: readonly string[]): Buffer {
    let at = 0;
    for (const line of lines) {
      this.buffer = withRoom(this.buffer, at, maxUtf8Bytes(line.length), Buffer.allocUnsafe);
      at += this.buffer.write(line, at);
    }
    return this.buffer.subarray(0, at);
  }
}

/**
 * One row: values separated by tabs, NULL as `\N`; numbers and booleans as their SQL literal text (a
 * JavaScript number's text reads back as the same number), JSON columns as their JSON text. Every
 * backslash in a value is escaped, so no line is ever the `\.` that would end the data.
 */
function copyLine(row: SqlValue[]): string {
  let line = '';
  for (let i = 0; i < row.length; i++) {
    if (i > 0) line += '\t';
    const value = row[i]!;
    if (value === null) line += '\\N';
    else if (typeof value !== 'string') line += String(value);
    else line += copyEscaped(value);
  }
  return `${line}\n`;
}

/** A text value as COPY reads it back: its backslashes, tabs and line breaks escaped. */
export function copyEscaped(value: string): string {
  // Most values have nothing to escape: the test costs less than a replace that finds nothing.
  return SPECIAL.test(value) ? value.replace(SPECIAL_EVERYWHERE, escaped) : value;
}

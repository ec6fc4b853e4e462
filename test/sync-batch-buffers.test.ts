import { describe, expect, it } from 'vitest';
import { CopyTextWriter } from '../core/hosted/sync/destinations/copy-text.ts';
import { JsonBatchWriter } from '../core/hosted/sync/destinations/json-batch.ts';
import { readJsonBatch } from './helpers/json-batch-records.ts';
import { recordBytes } from '../core/hosted/sync/destinations/record-bytes.ts';

/** The buffers the destinations reuse batch after batch: what goes in comes out whole, however large, and weighs what JSON weighs. */

const jsonBytes = (records: Record<string, unknown>[]) => records.reduce((sum, record) => sum + Buffer.byteLength(JSON.stringify(record)), 0);

describe('JsonBatchWriter', () => {
  it('hands over records as JSON reads them back, weighed as JSON in UTF-8, and its buffer reused', () => {
    const writer = new JsonBatchWriter();
    const first = [
      { id: 1, name: 'Zoë 日本語 🎉', nested: { list: [1, null, 'two'] } },
      { id: 2, lone: 'cut \ud83d', empty: '' },
    ];
    const written = writer.write(first);
    expect([...readJsonBatch(written.batch)]).toEqual(JSON.parse(JSON.stringify(first)));
    expect(written.bytes).toBe(jsonBytes(first));
    written.release();
    const second = writer.write([{ id: 3 }]);
    expect(second.batch.buffer).toBe(written.batch.buffer);
    expect([...readJsonBatch(second.batch)]).toEqual([{ id: 3 }]);
    expect(writer.write([]).bytes).toBe(0);
  });

  it('grows for a batch larger than its buffer, keeping what it wrote before', () => {
    const records = Array.from({ length: 300 }, (_, id) => ({ id, text: `${'é日'.repeat(5000)}${id}` }));
    const written = new JsonBatchWriter().write(records);
    expect(written.batch.ends.at(-1)).toBeGreaterThan(4 * 2 ** 20);
    expect([...readJsonBatch(written.batch)]).toEqual(records);
    expect(written.bytes).toBe(jsonBytes(records));
  });
});

describe('recordBytes', () => {
  it('is each record as JSON in UTF-8, a bigint as its digits in quotes', () => {
    expect(recordBytes([{ a: 'é' }, { b: [1, 2] }])).toBe(Buffer.byteLength('{"a":"é"}') + Buffer.byteLength('{"b":[1,2]}'));
    expect(recordBytes([{ big: 2n ** 70n }])).toBe(Buffer.byteLength(`{"big":"${2n ** 70n}"}`));
  });
});

describe('CopyTextWriter', () => {
  it("writes rows in COPY's text format: tabs between values, NULL as \\N, its special characters escaped", () => {
    const data = new CopyTextWriter().write([
      ['a\tb', 'line\nbreak\r', 'back\\slash', null],
      [1.5, true, '\\.', ''],
    ]);
    expect(data.toString()).toBe('a\\tb\tline\\nbreak\\r\tback\\\\slash\t\\N\n1.5\ttrue\t\\\\.\t\n');
  });

  it('grows for rows larger than its buffer', () => {
    const rows = Array.from({ length: 300 }, (_, id) => [id, 'é日'.repeat(5000)]);
    const data = new CopyTextWriter().write(rows);
    expect(data.toString()).toBe(rows.map((row) => `${row.join('\t')}\n`).join(''));
  });
});

import { describe, expect, it } from 'vitest';
import { createAjv } from './ajv.ts';
import { describeSchemaCompileError } from './schema-compile-errors.ts';

/** Ajv's own message for a schema it refuses, so the rephrasings stay tied to what Ajv says. */
function ajvRefusal(schema: object): string {
  try {
    createAjv().compile(schema);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the schema compiled');
}

const describeRefusal = (schema: object) => describeSchemaCompileError(ajvRefusal(schema));

describe('describeSchemaCompileError', () => {
  it('says an unknown keyword may be a typo', () => {
    expect(describeRefusal({ type: 'object', requird: ['id'] })).toBe(
      `unknown keyword "requird" (a typo? Ajv's strict mode refuses keywords it does not know)`,
    );
  });

  it('names a required property that properties does not define', () => {
    expect(describeRefusal({ type: 'object', properties: { a: { type: 'string' } }, required: ['id'] })).toBe(
      '"required" lists "id", which "properties" does not define (at #)',
    );
  });

  it('says which type a keyword needs beside it', () => {
    expect(describeRefusal({ type: 'object', properties: { n: { type: 'string', minimum: 1 } } })).toBe(
      'keyword "minimum" applies to number values only: declare "type": "number" beside it (at #/properties/n)',
    );
  });

  it('names an unknown format, a reference to nothing and a broken pattern', () => {
    expect(describeRefusal({ type: 'string', format: 'emial' })).toBe('unknown format "emial" at # (a typo? only the formats of ajv-formats are known)');
    expect(describeRefusal({ type: 'object', properties: { a: { $ref: '#/$defs/nope' } } })).toBe('"$ref" #/$defs/nope points at nothing in the schema');
    expect(describeRefusal({ type: 'string', pattern: '(' })).toMatch(/^a "pattern" is not a valid regular expression: \/\(\/u: /);
  });

  it('gives one reason per place of a schema that is not JSON Schema at all', () => {
    expect(describeRefusal({ type: 'object', properties: { id: { type: 'strng' }, n: { minLength: -1 } } })).toBe(
      'not a valid JSON Schema: #/properties/id/type must be equal to one of the allowed values; #/properties/n/minLength must be >= 0',
    );
  });

  it("keeps any other strict-mode reason, saying it is the strict mode's, and passes other messages on as they are", () => {
    expect(describeRefusal({ type: 'array', items: [{ type: 'string' }] })).toMatch(/^"items" is 1-tuple, .* \(refused by Ajv's strict mode\)$/);
    expect(describeSchemaCompileError('something else')).toBe('something else');
  });
});

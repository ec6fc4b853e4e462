import { describe, expect, it } from 'vitest';
import { createAjv } from './ajv.ts';
import { toValidationIssues } from './validation-issues.ts';

const ajv = createAjv();

/** The 422 issues for `value` against `schema`, under `body.params`. */
function issuesOf(schema: object, value: unknown) {
  const validate = ajv.compile(schema);
  if (validate(value)) return [];
  return toValidationIssues(validate.errors ?? [], ['body', 'params']);
}

describe('toValidationIssues', () => {
  it('names a missing or extra field in loc, pydantic-style', () => {
    const schema = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false };
    expect(issuesOf(schema, { idd: 'x' })).toEqual([
      { loc: ['body', 'params', 'id'], msg: 'field required', type: 'value_error.missing' },
      { loc: ['body', 'params', 'idd'], msg: 'extra fields not permitted', type: 'value_error.extra' },
    ]);
  });

  it('says which type was wanted, union types included', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' }, s: { type: ['string', 'null'] }, o: { type: 'object' } } };
    expect(issuesOf(schema, { n: 1.5, s: 3, o: [] })).toEqual([
      { loc: ['body', 'params', 'n'], msg: 'value is not a valid integer', type: 'type_error.integer' },
      { loc: ['body', 'params', 's'], msg: 'value is not a valid string or null', type: 'type_error.str or none' },
      { loc: ['body', 'params', 'o'], msg: 'value is not a valid object', type: 'type_error.dict' },
    ]);
  });

  it('gives bounds, patterns, enums and formats their messages', () => {
    const schema = {
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 1000 },
        name: { type: 'string', minLength: 2, maxLength: 3, pattern: '^[a-z]+$' },
        order: { enum: ['asc', 'desc'] },
        at: { type: 'string', format: 'date-time' },
      },
    };
    expect(issuesOf(schema, { limit: 0, name: 'ABCD', order: 'up', at: 'yesterday' })).toEqual([
      { loc: ['body', 'params', 'limit'], msg: 'ensure this value is greater than or equal to 1', type: 'value_error.number.not_ge' },
      { loc: ['body', 'params', 'name'], msg: 'ensure this value has at most 3 characters', type: 'value_error.any_str.max_length' },
      { loc: ['body', 'params', 'name'], msg: 'string does not match regex "^[a-z]+$"', type: 'value_error.str.regex' },
      { loc: ['body', 'params', 'order'], msg: 'value is not a valid enumeration member; permitted: "asc", "desc"', type: 'type_error.enum' },
      { loc: ['body', 'params', 'at'], msg: 'value is not a valid date-time', type: 'value_error.date_time' },
    ]);
    expect(issuesOf(schema, { limit: 1001, name: 'a' })).toEqual([
      { loc: ['body', 'params', 'limit'], msg: 'ensure this value is less than or equal to 1000', type: 'value_error.number.not_le' },
      { loc: ['body', 'params', 'name'], msg: 'ensure this value has at least 2 characters', type: 'value_error.any_str.min_length' },
    ]);
  });

  it("uses a schema's x-error-message instead of the raw rule, but never for a missing or extra field", () => {
    const name = { type: 'string', pattern: '^[a-z-]+$', 'x-error-message': 'must be lowercase with no spaces' };
    const schema = { type: 'object', properties: { name }, required: ['name'], additionalProperties: false, 'x-error-message': 'unused' };
    expect(issuesOf(schema, { name: 'Big Name' })).toEqual([
      { loc: ['body', 'params', 'name'], msg: 'must be lowercase with no spaces', type: 'value_error.str.regex' },
    ]);
    expect(issuesOf(schema, { other: 1 }).map((issue) => issue.msg)).toEqual(['field required', 'extra fields not permitted']);
  });

  it('turns a JSON pointer into loc: array indexes as numbers, ~1 and ~0 unescaped', () => {
    const schema = { type: 'object', properties: { 'a/b~c': { type: 'array', items: { type: 'string' } } } };
    expect(issuesOf(schema, { 'a/b~c': ['ok', 7] })).toEqual([
      { loc: ['body', 'params', 'a/b~c', 1], msg: 'value is not a valid string', type: 'type_error.str' },
    ]);
  });

  it('falls back to the keyword for a rule it has no words of its own for', () => {
    expect(issuesOf({ type: 'array', items: { type: 'string' }, uniqueItems: true }, ['a', 'a'])).toEqual([
      { loc: ['body', 'params'], msg: 'must NOT have duplicate items (items ## 1 and 0 are identical)', type: 'value_error.uniqueItems' },
    ]);
  });
});

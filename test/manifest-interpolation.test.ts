import { describe, expect, it } from 'vitest';
import { PlugboardError } from '../core/errors.ts';
import {
  formatDatetime,
  type InterpolateOptions,
  type InterpolationContext,
  InterpolationError,
  interpolate,
  interpolateBoolean,
  interpolateMapping,
  interpolateNestedMapping,
  interpolateRequestInput,
  parseDatetime,
  PyDateTime,
  StreamSlice,
} from '../core/manifests/interpolation/index.ts';
import { compileFixedWidth } from '../core/manifests/interpolation/datetime/fixed-width-strptime.ts';
import { strptime } from '../core/manifests/interpolation/datetime/strptime.ts';

/*
 * Airbyte's declarative interpolation, checked against what the CDK (airbyte-python-cdk 7.28)
 * does: each table row is a behaviour of the CDK's own unit tests or of a probe run on the CDK's
 * interpolation code, named after it. The clock is frozen through the `now` option where the CDK's
 * tests freeze it.
 */

const SEPT_1_2021 = new Date('2021-09-01T00:00:00Z');

/** The CDK's JinjaInterpolation.eval with no default: an empty result is None. */
const jinja = (template: string, context: InterpolationContext = {}, options: InterpolateOptions = {}) =>
  interpolate(template, context, { default: null, now: SEPT_1_2021, ...options });

/** The CDK's InterpolatedString: the default is the template itself, so an empty result is "". */
const interpolatedString = (template: string, context: InterpolationContext = {}) => interpolate(template, context, { now: SEPT_1_2021 });

const utc = (iso: string) => parseDatetime(iso, '%Y-%m-%dT%H:%M:%S%z');

function failure(run: () => unknown): InterpolationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InterpolationError);
    return error as InterpolationError;
  }
  throw new Error('expected an InterpolationError');
}

describe('CDK facts: JinjaInterpolation.eval', () => {
  it.each<[string, string, InterpolationContext, unknown]>([
    ['value from config', "{{ config['date'] }}", { config: { date: '2022-01-01' } }, '2022-01-01'],
    ['missing config key is None', "{{ config['date'] }}", { config: {} }, null],
    ['value from stream_slice', "{{ stream_slice['date'] }}", { config: { date: '2022-01-01' }, stream_slice: { date: '2020-09-09' } }, '2020-09-09'],
    ['missing stream_slice key is None', "{{ stream_slice['date'] }}", { config: { date: '2022-01-01' }, stream_slice: {} }, null],
    ['value from a list of mappings', "{{ records[0]['date'] }}", { config: { date: '2022-01-01' }, records: [{ date: '2020-09-09' }] }, '2020-09-09'],
    ['literal number', '{{1}}', { config: null }, 1],
    ['literal list', '{{[1,2]}}', { config: null }, [1, 2]],
    ['literal dict with an int key', '{{ {1:2} }}', { config: null }, { 1: 2 }],
    ['addition', '{{ 1+2 }}', { config: null }, 3],
    ['stream_slice alias itself', "{{ stream_slice['stream_slice_key'] }}", { stream_slice: { stream_slice_key: 'hello' } }, 'hello'],
    ['stream_partition alias', "{{ stream_partition['stream_slice_key'] }}", { stream_slice: { stream_slice_key: 'hello' } }, 'hello'],
    ['stream_interval alias', "{{ stream_interval['stream_slice_key'] }}", { stream_slice: { stream_slice_key: 'hello' } }, 'hello'],
    ['string filter keeps a str', "{{ config['key'] | string }}", { config: { key: 'hello world' } }, 'hello world'],
    ['string filter on an int gives text', "{{ config['key'] | string }}", { config: { key: 1 } }, '1'],
    ['string filter on a float gives text', "{{ config['key'] | string }}", { config: { key: 1.52 } }, '1.52'],
    ['string filter on true gives JSON text', "{{ config['key'] | string }}", { config: { key: true } }, 'true'],
    ['string filter on false gives JSON text', "{{ config['key'] | string }}", { config: { key: false } }, 'false'],
    ['string filter on a list gives JSON text', "{{ config['key'] | string }}", { config: { key: ['hello', 'world'] } }, '["hello", "world"]'],
    ['string filter on a dict gives JSON text', "{{ config['key'] | string }}", { config: { key: { hello: 'world' } } }, '{"hello": "world"}'],
    ['timestamp of an int', '{{ timestamp(1621439283) }}', {}, 1621439283],
    ['timestamp of a date', "{{ timestamp('2021-05-19') }}", {}, 1621382400],
    ['timestamp of RFC 3339', "{{ timestamp('2017-01-01T00:00:00.0Z') }}", {}, 1483228800],
    ['max of arguments', '{{ max(1,2) }}', {}, 2],
    ['min of arguments', '{{ min(1,2) }}', {}, 1],
    ['a declared extra variable', '{{ to_be }}', { config: { key: '<class>' }, to_be: 'that_is_the_question' }, 'that_is_the_question'],
    ['timestamp of an epoch', '{{ timestamp(1646006400) }}', {}, 1646006400],
    ['timestamp of a plain date', "{{ timestamp('2022-02-28') }}", {}, 1646006400],
    ['timestamp with Z', "{{ timestamp('2022-02-28T00:00:00Z') }}", {}, 1646006400],
    ['timestamp with a space separator', "{{ timestamp('2022-02-28 00:00:00Z') }}", {}, 1646006400],
    ['timestamp with an offset', "{{ timestamp('2022-02-28T00:00:00-08:00') }}", {}, 1646035200],
    ['max(2, 3)', '{{ max(2, 3) }}', {}, 3],
    ['max of a list', '{{ max([2, 3]) }}', {}, 3],
    ['min(2, 3)', '{{ min(2, 3) }}', {}, 2],
    ['min of a list', '{{ min([2, 3]) }}', {}, 2],
    ['duration prints as a timedelta', "{{ duration('P1D') }}", {}, '1 day, 0:00:00'],
    ['duration of days and hours', "{{ duration('P6DT23H') }}", {}, '6 days, 23:00:00'],
    ['an int literal through string', '{{ 1 | string }}', {}, '1'],
    ['a list literal through string', '{{ ["hello", "world"] | string }}', {}, '["hello", "world"]'],
    ['an unhashable set literal stays text', "{{ config['query'] }}", { config: { query: "{{'web'}, {'discover'}}" } }, "{{'web'}, {'discover'}}"],
    ['a complex number stays text', '9173710294242221J', {}, '9173710294242221J'],
  ])('%s', (_, template, context, expected) => {
    expect(jinja(template, context)).toEqual(expected);
  });

  it.each<[string, string, string, string]>([
    ['day_delta with a format', "{{ day_delta(25,format='%Y-%m-%d') }}", '2021-01-01T03:04:05Z', '2021-01-26'],
    ['now_utc prints as str(datetime)', '{{ now_utc() }}', '2021-09-01T00:00:00Z', '2021-09-01 00:00:00+00:00'],
    ['now_utc().strftime', "{{ now_utc().strftime('%Y-%m-%d') }}", '2021-09-01T00:00:00Z', '2021-09-01'],
    ['today_utc prints as a date', '{{ today_utc() }}', '2021-09-01T00:00:00Z', '2021-09-01'],
    ['today_utc().strftime', "{{ today_utc().strftime('%Y/%m/%d') }}", '2021-09-01T00:00:00Z', '2021/09/01'],
    ['day_delta(1)', '{{ day_delta(1) }}', '2021-09-01T00:00:00Z', '2021-09-02T00:00:00.000000+0000'],
    ['day_delta(-1)', '{{ day_delta(-1) }}', '2021-09-01T00:00:00Z', '2021-08-31T00:00:00.000000+0000'],
    ['day_delta(1, format=...)', "{{ day_delta(1, format='%Y-%m-%d') }}", '2021-09-01T00:00:00Z', '2021-09-02'],
    ['now_utc() minus a duration', "{{ (now_utc() - duration('P1D')).strftime('%Y-%m-%dT%H:%M:%SZ') }}", '2021-09-01T00:00:00Z', '2021-08-31T00:00:00Z'],
    ['today_with_timezone east of UTC', "{{ today_with_timezone('Pacific/Kiritimati') }}", '2021-09-01T12:00:00Z', '2021-09-02'],
  ])('%s (frozen clock)', (_, template, now, expected) => {
    expect(jinja(template, {}, { now: new Date(now) })).toEqual(expected);
  });

  it('day_delta without a frozen clock is 25 days ahead or behind the real time', () => {
    const format = (date: Date) => formatDatetime(PyDateTime.fromMicros(BigInt(date.getTime()) * 1000n, 0), '%Y-%m-%dT%H:%M:%S.%f%z');
    const day = 86_400_000;
    expect(String(interpolate('{{ day_delta(25) }}', {}, { default: null })) > format(new Date(Date.now() + 24 * day + 23 * 3_600_000))).toBe(true);
    expect(String(interpolate('{{ day_delta(-25) }}', {}, { default: null })) <= format(new Date(Date.now() - 25 * day))).toBe(true);
  });

  it.each<[string, string, InterpolationContext]>([
    ['stream_interval passed beside stream_slice', 'a_key', { stream_interval: 'a_value' }],
    ['stream_partition passed beside stream_slice', 'a_key', { stream_partition: 'a_value' }],
    ['an import statement', '{{ import os) }}', { config: { key: 'value' } }],
    ['a list comprehension', '{{ [a for a in range(1000000000)] }}', { config: { key: 'value' } }],
    ['stream_state (removed in CDK 6.34)', "{{ stream_state.get('some_field') }}", {}],
    [
      'range (removed from the globals)',
      '\n       {% set a = 1 %}\n       {% set b = 1 %}\n       {% for i in range(1000000000) %}\n       {% endfor %}\n        {{ a }}',
      {},
    ],
    ['eval', "{{ eval ('2+2') }}", {}],
    ['getattr', "{{ getattr(config, 'key') }}", { config: { key: 'x' } }],
    ['setattr', "{{ setattr(config, 'password', 'hunter2') }}", {}],
    ['globals()', '{{ globals()  }}', {}],
    ['locals()', '{{ locals()  }}', {}],
    ['a bare eval', '{{ eval }}', {}],
    ['an undeclared variable', '{{ missingno }}', { to_be: 'that_is_the_question' }],
    ['one undeclared variable of two', '{{ to_be and or_not_to_be }}', { to_be: 'that_is_the_question' }],
  ])('fails on %s', (_, template, context) => {
    failure(() => jinja(template, context));
  });

  it("lets `_partition` through on a StreamSlice (the CDK's exception for source-jira)", () => {
    const slice = new StreamSlice({ partition: { parent_stream_fields: 'value' }, cursor_slice: {} });
    expect(jinja('{{ stream_slice._partition.parent_stream_fields }}', { stream_slice: slice })).toBe('value');
  });
});

describe('CDK facts: filters', () => {
  it.each<[string, string, unknown]>([
    ['hash md5', "{{ 'abcd' | hash('md5') }}", 'e2fc714c4727ee9395f324cd2e7f331f'],
    ['hash of a float hashes its str()', "{{ 123.456000 | hash('md5') }}", 'b316df1d65ee42ff51a5393df1f86105'],
    ['hash with a salt', "{{ 'test_input_string' | hash('md5', 'test_input_salt' ) }}", '77a2e8a61c51743022726d3f28b425cb'],
    ['base64encode a client id', "{{ 'test_input_client_id' | base64encode }}", 'dGVzdF9pbnB1dF9jbGllbnRfaWQ='],
    ['base64encode a secret', "{{ 'some_client_secret_1' | base64encode }}", 'c29tZV9jbGllbnRfc2VjcmV0XzE='],
    ['base64encode digits', "{{ '12345' | base64encode }}", 'MTIzNDU='],
    ['base64encode a decimal', "{{ '775.78' | base64encode }}", 'Nzc1Ljc4'],
    ['base64decode', "{{ 'aW5wdXRfc3RyaW5n' | base64decode }}", 'input_string'],
    ['base64decode with padding', "{{ 'YWlyYnl0ZQ==' | base64decode }}", 'airbyte'],
    ['base64decode with one pad', "{{ 'cGFzc3dvcmQ=' | base64decode }}", 'password'],
    [
      'regex_search returns group 1',
      `{{ '<https://this-is-test-link.com/?page=2>; rel="next"' | regex_search('<(.*)>; rel=.*') }}`,
      'https://this-is-test-link.com/?page=2',
    ],
    ['regex_search without a group is None', `{{ '<https://this-is-test-link.com/?page=2>; rel="next"' | regex_search('<.*>; rel=.*') }}`, null],
    ['regex_search without a match is None', `{{ '<https://this-is-test-link.com/?page=2>; rel="next"' | regex_search('WATWATWAT') }}`, null],
    ['regex_replace', "{{ 'hello world' | regex_replace('world', 'there') }}", 'hello there'],
    ['regex_replace strips digits', "{{ 'abc123def456' | regex_replace('[0-9]+', '') }}", 'abcdef'],
    ['regex_replace without a match', "{{ 'hello world' | regex_replace('xyz', 'replaced') }}", 'hello world'],
    ['regex_replace every occurrence', "{{ 'aaa bbb aaa' | regex_replace('aaa', 'ccc') }}", 'ccc bbb ccc'],
    ['hmac sha256 by default', "{{ 'test_message' | hmac('test_secret_key') }}", 'f972be96e44b7aafd5eb76e432a560e2cb94e6f6f1fe9d1c1fa684715de3c767'],
    ['hmac sha256 named', "{{ 'test_message' | hmac('test_secret_key', 'sha256') }}", 'f972be96e44b7aafd5eb76e432a560e2cb94e6f6f1fe9d1c1fa684715de3c767'],
    ['hmac of a number', "{{ 12345 | hmac('test_secret_key') }}", '98ccefe30eaf697342d421174c3aa2e0513364e4995abf703c1e6bd18ba8a370'],
  ])('%s', (_, template, expected) => {
    expect(jinja(template)).toEqual(expected);
  });

  it('hmac refuses anything but sha256', () => {
    failure(() => jinja("{{ 'test_message' | hmac('test_secret_key', 'md5') }}"));
  });
});

describe('CDK facts: macros', () => {
  const at = (year: number, month: number, day: number, hour: number, minute: number, second: number) =>
    PyDateTime.of({ year, month, day, hour, minute, second }, null);

  it.each<[string, unknown, string, string | null, unknown]>([
    ['datetime string to date', '2022-01-01T01:01:01Z', '%Y-%m-%d', null, '2022-01-01'],
    ['date string to date', '2022-01-01', '%Y-%m-%d', null, '2022-01-01'],
    ['midnight string to date', '2022-01-01T00:00:00Z', '%Y-%m-%d', null, '2022-01-01'],
    ['datetime string to datetime', '2022-01-01T01:01:01Z', '%Y-%m-%dT%H:%M:%SZ', null, '2022-01-01T01:01:01Z'],
    ['offset string converted to UTC', '2022-01-01T01:01:01-0800', '%Y-%m-%dT%H:%M:%SZ', null, '2022-01-01T09:01:01Z'],
    ['datetime object to date', at(2022, 1, 1, 1, 1, 1), '%Y-%m-%d', null, '2022-01-01'],
    ['datetime object to datetime', at(2022, 1, 1, 1, 1, 1), '%Y-%m-%dT%H:%M:%SZ', null, '2022-01-01T01:01:01Z'],
    ['RFC 2822 input format', 'Sat, 01 Jan 2022 01:01:01 +0000', '%Y-%m-%d', '%a, %d %b %Y %H:%M:%S %z', '2022-01-01'],
    ['to epoch seconds (re-typed to an int)', '2022-01-01T01:01:01Z', '%s', '%Y-%m-%dT%H:%M:%SZ', 1640998861],
    ['to epoch microseconds', '2022-01-01T01:01:01Z', '%epoch_microseconds', '%Y-%m-%dT%H:%M:%SZ', 1640998861000000],
    ['from an epoch int', 1683729087, '%Y-%m-%dT%H:%M:%SZ', null, '2023-05-10T14:31:27Z'],
    ['from epoch microseconds', 1640998861000000, '%Y-%m-%dT%H:%M:%SZ', '%epoch_microseconds', '2022-01-01T01:01:01Z'],
    ['from epoch milliseconds', 1640998861000, '%Y-%m-%dT%H:%M:%SZ', '%ms', '2022-01-01T01:01:01Z'],
    ['with a +01:00 offset, in UTC', '2022-01-01T01:01:01+0100', '%Y-%m-%dT%H:%M:%S.%f%z', null, '2022-01-01T00:01:01.000000+0000'],
    ['naive input is UTC', '2022-01-01T01:01:01', '%Y-%m-%dT%H:%M:%S.%f%z', null, '2022-01-01T01:01:01.000000+0000'],
    ['%s of an ISO string', '2020-10-01T00:00:00Z', '%s', null, 1601510400],
  ])('format_datetime: %s', (_, dt, format, inputFormat, expected) => {
    expect(jinja('{{ format_datetime(dt, format, input_format) }}', { dt, format, input_format: inputFormat })).toEqual(expected);
  });

  it.each<[string, unknown, number]>([
    ['an int', 1646006400, 1646006400],
    ['an integral float', 100.0, 100],
    ['a float, floored', 100.9, 100],
    ['an ISO date', '2022-02-28', 1646006400],
    ['midnight with Z', '2022-02-28T00:00:00Z', 1646006400],
    ['midnight with an offset', '2022-02-28T00:00:00-08:00', 1646035200],
    ['midnight with a space', '2022-02-28 00:00:00Z', 1646006400],
    ['a naive time (UTC)', '2022-02-28T10:11:12', 1646043072],
  ])('timestamp of %s', (_, value, expected) => {
    expect(jinja('{{ timestamp(v) }}', { v: value })).toBe(expected);
  });

  it.each<[string, string]>([
    ['P1D', '1 day, 0:00:00'],
    ['P6DT23H', '6 days, 23:00:00'],
  ])('duration(%s) is a timedelta', (text, printed) => {
    expect(jinja('{{ duration(s) }}', { s: text })).toBe(printed);
  });

  it.each<[string, string]>([
    ['2022-01-14', '2022-01-14 00:00:00+00:00'],
    ['2022-01-01 13:45:30', '2022-01-01 13:45:30+00:00'],
    ['2022-01-01T13:45:30+00:00', '2022-01-01 13:45:30+00:00'],
    ['2022-01-01T13:45:30+05:30', '2022-01-01 08:15:30+00:00'],
    ['2022-01-01T13:45:30.123456Z', '2022-01-01 13:45:30.123456+00:00'],
  ])('str_to_datetime(%s) is a UTC datetime', (text, printed) => {
    expect(jinja('{{ str_to_datetime(s) }}', { s: text })).toBe(printed);
  });

  it('str_to_datetime fails on text that is no date', () => {
    failure(() => jinja('{{ str_to_datetime(s) }}', { s: 'invalid-date' }));
  });

  it.each<[string, string]>([
    ['https://example.com/path?query=value', 'https%3A%2F%2Fexample.com%2Fpath%3Fquery%3Dvalue'],
    ['https://example.com/path with spaces?query=some value', 'https%3A%2F%2Fexample.com%2Fpath+with+spaces%3Fquery%3Dsome+value'],
    ['https://example.com/path?query=value&other=123+456#fragment', 'https%3A%2F%2Fexample.com%2Fpath%3Fquery%3Dvalue%26other%3D123%2B456%23fragment'],
    ['hello world', 'hello+world'],
  ])('sanitize_url(%s)', (value, expected) => {
    expect(jinja('{{ sanitize_url(v) }}', { v: value })).toBe(expected);
  });

  it.each<[string, string]>([
    ['CamelCase', 'camel_case'],
    ['snake_case', 'snake_case'],
    ['CamelCasesnake_case', 'camel_casesnake_case'],
    ['CamelCase_snake_case', 'camel_case_snake_case'],
  ])('camel_case_to_snake_case(%s)', (value, expected) => {
    expect(jinja('{{ camel_case_to_snake_case(v) }}', { v: value })).toBe(expected);
  });

  it('generate_uuid gives a new version 4 UUID each time', () => {
    const first = jinja('{{ generate_uuid() }}');
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(jinja('{{ generate_uuid() }}')).not.toBe(first);
  });

  it.each([
    'now_utc',
    'today_utc',
    'max',
    'min',
    'day_delta',
    'format_datetime',
    'duration',
    'camel_case_to_snake_case',
    'generate_uuid',
    'timestamp',
    'str_to_datetime',
    'today_with_timezone',
    'sanitize_url',
  ])('%s is a macro', (name) => {
    expect(jinja(`{{ ${name} is defined }}`)).toBe(true);
  });

  it('a name that is no macro is undeclared', () => {
    failure(() => jinja('{{ thisisnotavalidmacro() }}'));
  });
});

describe('CDK facts: InterpolatedBoolean', () => {
  const context: InterpolationContext = {
    config: {
      parent: { key_with_true: true },
      string_key: 'compare_me',
      zero_value: 0,
      empty_array: [],
      non_empty_array: [1],
      empty_dict: {},
      empty_tuple: [],
    },
    parameters: { from_parameters: 'come_find_me' },
  };
  it.each<[string, string, boolean]>([
    ['a true value', "{{ config['parent']['key_with_true'] }}", true],
    ['a true comparison', '{{ config[\'string_key\'] == "compare_me" }}', true],
    ['a false comparison', '{{ config[\'string_key\'] == "witness_me" }}', false],
    ['a present value', "{{ config['string_key'] }}", true],
    ['zero', "{{ config['zero_value'] }}", false],
    ['an empty array', "{{ config['empty_array'] }}", false],
    ['an empty dict', "{{ config['empty_dict'] }}", false],
    ['an empty tuple', "{{ config['empty_tuple'] }}", false],
    ['"false"', '{{ "false" }}', false],
    ['False', '{{ False }}', false],
    ['True', '{{ True }}', true],
    ['a value in an array', "{{ 1 in config['non_empty_array'] }}", true],
    ['a value not in an array', "{{ 2 in config['non_empty_array'] }}", false],
    ['a parameter', '{{ parameters[\'from_parameters\'] == "come_find_me" }}', true],
  ])('%s', (_, condition, expected) => {
    expect(interpolateBoolean(condition, context)).toBe(expected);
  });

  it('a boolean condition is itself', () => {
    expect(interpolateBoolean(true)).toBe(true);
    expect(interpolateBoolean(false)).toBe(false);
  });
});

describe('CDK facts: InterpolatedString', () => {
  const base = { config: { field: 'value' }, parameters: { hello: 'world' } };
  it.each<[string, string, InterpolationContext, unknown]>([
    ['a static value', 'HELLO WORLD', { ...base, kwargs: { c: 'airbyte' } }, 'HELLO WORLD'],
    ['from parameters', "{{ parameters['hello'] }}", base, 'world'],
    ['from config', "{{ config['field'] }}", base, 'value'],
    ['from an extra variable', "{{ kwargs['c'] }}", { ...base, kwargs: { c: 'airbyte' } }, 'airbyte'],
  ])('%s', (_, template, context, expected) => {
    expect(interpolatedString(template, context)).toEqual(expected);
  });

  const inline = "{{ record['some_calculation'] | float if record.get('some_calculation') is not none and record.get('some_calculation') != '' else none }}";
  const multiline = "{% set v = record.get('some_calculation') %}\n{{ v | replace('%', '') | float if v is not none and v != '' else None }}";
  it.each<[unknown, unknown]>([
    ['4.4', 4.4],
    [4.4, 4.4],
    ['', null],
    [null, null],
    ['0.0', 0],
    ['0.00', 0],
    [0.0, 0],
  ])('parses record data %j to %j, inline and with {% set %}', (value, expected) => {
    const context = { ...base, record: { some_calculation: value } };
    expect(interpolatedString(inline, context)).toBe(expected);
    expect(interpolatedString(multiline, context)).toBe(expected);
  });
});

describe('CDK facts: mappings', () => {
  it('InterpolatedMapping: keys and string values are templates, other values pass through', () => {
    const mapping = {
      field: 'value',
      number: 100,
      field_to_interpolate_from_config: "{{ config['c'] }}",
      field_to_interpolate_from_kwargs: "{{ kwargs['a'] }}",
      field_to_interpolate_from_parameters: "{{ parameters['b'] }}",
      '{{ parameters.k }}': 'VALUE',
    };
    const context = { config: { c: 'VALUE_FROM_CONFIG' }, parameters: { b: 'VALUE_FROM_PARAMETERS', k: 'key' }, kwargs: { a: 'VALUE_FROM_KWARGS' } };
    expect(interpolateMapping(mapping, context)).toEqual({
      field: 'value',
      number: 100,
      field_to_interpolate_from_config: 'VALUE_FROM_CONFIG',
      field_to_interpolate_from_kwargs: 'VALUE_FROM_KWARGS',
      field_to_interpolate_from_parameters: 'VALUE_FROM_PARAMETERS',
      key: 'VALUE',
    });
  });

  it('InterpolatedNestedMapping: strings at any depth are templates with their types kept', () => {
    const mapping = {
      nested: {
        field: 'value',
        number: 100,
        nested_array: [{ '{{ parameters.k }}': 'VALUE' }, { value: "{{ config['num_value'] | int + 2 }}" }, { value: '{{ True }}' }],
        config_value: "{{ config['c'] }}",
        parameters_value: "{{ parameters['b'] }}",
        kwargs_value: "{{ kwargs['a'] }}",
      },
    };
    const context = {
      config: { c: 'VALUE_FROM_CONFIG', num_value: 3 },
      parameters: { b: 'VALUE_FROM_PARAMETERS', k: 'key' },
      kwargs: { a: 'VALUE_FROM_KWARGS' },
    };
    expect(interpolateNestedMapping(mapping, context)).toEqual({
      nested: {
        field: 'value',
        number: 100,
        nested_array: [{ key: 'VALUE' }, { value: 5 }, { value: true }],
        config_value: 'VALUE_FROM_CONFIG',
        parameters_value: 'VALUE_FROM_PARAMETERS',
        kwargs_value: 'VALUE_FROM_KWARGS',
      },
    });
  });

  const requestContext = {
    config: { config_key: 'value_of_config' },
    stream_slice: { slice_key: 'slice_value' },
    parameters: { read_from_parameters: 'value_of_parameters' },
  };
  it.each<[string, Record<string, string>, Record<string, string>]>([
    ['static data', { a_static_request_param: 'a_static_value' }, { a_static_request_param: 'a_static_value' }],
    ['from the stream slice', { read_from_slice: "{{ stream_slice['slice_key'] }}" }, { read_from_slice: 'slice_value' }],
    ['from config', { read_from_config: "{{ config['config_key'] }}" }, { read_from_config: 'value_of_config' }],
    ['from parameters', { read_from_parameters: "{{ parameters['read_from_parameters'] }}" }, { read_from_parameters: 'value_of_parameters' }],
    ['nothing', {}, {}],
  ])('request input provider: %s', (_, input, expected) => {
    expect(interpolateRequestInput('request_parameters', input, requestContext)).toEqual(expected);
  });
});

describe('CDK facts: record filter conditions', () => {
  const context = {
    config: { response_override: 'stop_if_you_see_me' },
    parameters: { created_at: '06-07-21' },
    stream_slice: new StreamSlice({ partition: {}, cursor_slice: { last_seen: '06-10-21' }, extra_fields: { created_at: '06-07-21' } }),
    next_page_token: { last_seen_id: 14 },
  };
  const keep = (condition: string, records: Array<Record<string, unknown>>) =>
    records.filter((record) => interpolateBoolean(condition, { ...context, record }));
  const dated = (field: string, ...dates: string[]) => dates.map((date, index) => ({ id: index + 1, [field]: date }));
  const ids = [11, 12, 13, 14, 15].map((id) => ({ id }));

  it.each<[string, string, Array<Record<string, unknown>>, unknown[]]>([
    [
      'extra_fields through the stream_interval alias',
      "{{ record['created_at'] >= stream_interval.extra_fields['created_at'] }}",
      dated('created_at', '06-06-21', '06-07-21', '06-08-21'),
      [2, 3],
    ],
    ['the slice', "{{ record['last_seen'] >= stream_slice['last_seen'] }}", dated('last_seen', '06-06-21', '06-07-21', '06-10-21'), [3]],
    ['the next page token', "{{ record['id'] >= next_page_token['last_seen_id'] }}", ids, [14, 15]],
    ['a missing token field (an undefined comparison drops the record)', "{{ record['id'] >= next_page_token['path_to_nowhere'] }}", ids, []],
    ['parameters', "{{ record['created_at'] > parameters['created_at'] }}", dated('created_at', '06-06-21', '06-07-21', '06-08-21'), [3]],
    [
      'extra_fields of stream_slice',
      "{{ record['created_at'] > stream_slice.extra_fields['created_at'] }}",
      dated('created_at', '06-06-21', '06-07-21', '06-08-21'),
      [3],
    ],
  ])('filters on %s', (_, condition, records, keptIds) => {
    expect(keep(condition, records).map((record) => record.id)).toEqual(keptIds);
  });
});

describe('CDK facts: AddFields values and conditions', () => {
  type Field = { path: Array<string | number>; value: string };
  /** AddFields as the CDK runs it: each value is an InterpolatedString (typed by value_type), each field gated by the condition. */
  function addFields(
    record: Record<string, unknown>,
    fields: Field[],
    options: { valueType?: 'str'; condition?: string; config?: object; stream_slice?: object } = {},
  ) {
    const out = structuredClone(record);
    const context = {
      record,
      parameters: { alas: 'i live' },
      config: options.config ?? {},
      ...(options.stream_slice ? { stream_slice: options.stream_slice } : {}),
    };
    for (const field of fields) {
      if (options.condition && !interpolateBoolean(options.condition, { ...context, path: field.path, value: field.value })) continue;
      const value = interpolate(field.value, context, options.valueType ? { validTypes: [options.valueType] } : {});
      let target = out as Record<string | number, unknown>;
      for (const part of field.path.slice(0, -1)) {
        target[part] ??= {};
        target = target[part] as Record<string | number, unknown>;
      }
      const last = field.path[field.path.length - 1]!;
      if (Array.isArray(target)) while (target.length < Number(last)) target.push(null);
      target[last] = value;
    }
    return out;
  }
  const k = { k: 'v' };

  it.each<[string, Record<string, unknown>, Field[], Parameters<typeof addFields>[2], Record<string, unknown>]>([
    ['a static value', k, [{ path: ['path'], value: 'static_value' }], {}, { k: 'v', path: 'static_value' }],
    ['an expression re-typed to an int', k, [{ path: ['path'], value: '{{ 1 }}' }], {}, { k: 'v', path: 1 }],
    ['an expression kept as str by value_type', k, [{ path: ['path'], value: '{{ 1 }}' }], { valueType: 'str' }, { k: 'v', path: '1' }],
    [
      'several static values',
      k,
      [
        { path: ['path'], value: 'static_value' },
        { path: ['path2'], value: 'static_value2' },
      ],
      {},
      { k: 'v', path: 'static_value', path2: 'static_value2' },
    ],
    ['a nested path', k, [{ path: ['nested', 'path'], value: 'static_value' }], {}, { k: 'v', nested: { path: 'static_value' } }],
    ['an existing value updated', k, [{ path: ['k'], value: 'new_value' }], {}, { k: 'new_value' }],
    ['an element inside an array', { k: [0, 1] }, [{ path: ['k', 3], value: 'v' }], {}, { k: [0, 1, null, 'v'] }],
    ['config by key', k, [{ path: ['k2'], value: '{{ config["shop"] }}' }], { config: { shop: 'in-n-out' } }, { k: 'v', k2: 'in-n-out' }],
    ['config by attribute', k, [{ path: ['k2'], value: '{{ config.shop }}' }], { config: { shop: 'in-n-out' } }, { k: 'v', k2: 'in-n-out' }],
    ['the slice by key', k, [{ path: ['k2'], value: '{{ stream_slice["start_date"] }}' }], { stream_slice: { start_date: 'oct1' } }, { k: 'v', k2: 'oct1' }],
    ['the slice by attribute', k, [{ path: ['k2'], value: '{{ stream_slice.start_date }}' }], { stream_slice: { start_date: 'oct1' } }, { k: 'v', k2: 'oct1' }],
    ['the record by attribute', k, [{ path: ['k2'], value: '{{ record.k }}' }], {}, { k: 'v', k2: 'v' }],
    ['the record by key', k, [{ path: ['k2'], value: '{{ record["k"] }}' }], {}, { k: 'v', k2: 'v' }],
    ['a nested record attribute', { k: { nested: 'v' } }, [{ path: ['k2'], value: '{{ record.k.nested }}' }], {}, { k: { nested: 'v' }, k2: 'v' }],
    ['a nested record key', { k: { nested: 'v' } }, [{ path: ['k2'], value: '{{ record["k"]["nested"] }}' }], {}, { k: { nested: 'v' }, k2: 'v' }],
    ['arithmetic', k, [{ path: ['k2'], value: '{{ 2 + 2 }}' }], {}, { k: 'v', k2: 4 }],
    ['nothing when the condition is false', k, [{ path: ['path'], value: 'static_value' }], { condition: '{{ False }}' }, { k: 'v' }],
    ['everything when the condition is true', k, [{ path: ['path'], value: 'static_value' }], { condition: '{{ True }}' }, { k: 'v', path: 'static_value' }],
    [
      'a field when its path is new',
      k,
      [{ path: ['path'], value: 'static_value' }],
      { condition: '{{ path[0] not in record.keys() }}' },
      { k: 'v', path: 'static_value' },
    ],
    [
      'no field when its path exists',
      { k: 'v', existing_path: 'record_value' },
      [{ path: ['existing_path'], value: 'static_value' }],
      { condition: '{{ path[0] not in record.keys() }}' },
      { k: 'v', existing_path: 'record_value' },
    ],
  ])('adds %s', (_, record, fields, options, expected) => {
    expect(addFields(record, fields, options)).toEqual(expected);
  });
});

describe('CDK facts: MinMaxDatetime (interpolated bounds, parsed and clamped)', () => {
  /** MinMaxDatetime.get_datetime: each part is an InterpolatedString parsed with the format; an empty bound is ignored. */
  function minMax(value: string, min: string, max: string, context: InterpolationContext, format = '%Y-%m-%dT%H:%M:%S.%f%z'): string {
    let time = parseDatetime(String(interpolate(value, context)), format);
    const low = min ? String(interpolate(min, context)) : '';
    const high = max ? String(interpolate(max, context)) : '';
    if (low && parseDatetime(low, format).epochMicros > time.epochMicros) time = parseDatetime(low, format);
    if (high && parseDatetime(high, format).epochMicros < time.epochMicros) time = parseDatetime(high, format);
    return time.isoformat();
  }
  const context = {
    config: { older: '2021-01-01T20:12:19.597854Z', middle: '2022-01-01T20:12:19.597854Z' },
    stream_slice: { start_date: '2022-06-24T20:12:19.597854Z' },
    parameters: { newer: '2022-06-24T20:12:19.597854Z', older: '2021-01-01T20:12:19.597854Z' },
  };
  const NEWER = '2022-06-24T20:12:19.597854+00:00';
  const OLDER = '2021-01-01T20:12:19.597854+00:00';
  it.each<[string, string, string, string, string]>([
    ['greater than min', "{{ config['older'] }}", "{{ stream_interval['start_date'] }}", '', NEWER],
    ['less than min', "{{ stream_interval['start_date'] }}", "{{ config['older'] }}", '', NEWER],
    ['equal to min', "{{ config['older'] }}", "{{ config['older'] }}", '', OLDER],
    ['greater than max', "{{ stream_interval['start_date'] }}", '', "{{ config['older'] }}", OLDER],
    ['less than max', "{{ config['older'] }}", '', "{{ stream_interval['start_date'] }}", OLDER],
    ['equal to max', "{{ stream_interval['start_date'] }}", "{{ stream_interval['start_date'] }}", '', NEWER],
    ['between min and max', "{{ config['middle'] }}", "{{ config['older'] }}", "{{ stream_interval['start_date'] }}", '2022-01-01T20:12:19.597854+00:00'],
    ['min from parameters', "{{ config['older'] }}", "{{ parameters['newer'] }}", '', NEWER],
    ['max from parameters', "{{ stream_interval['start_date'] }}", '', "{{ parameters['older'] }}", OLDER],
  ])('%s', (_, value, min, max, expected) => {
    expect(minMax(value, min, max, context)).toBe(expected);
  });

  it('a custom format, naive text read as UTC', () => {
    const custom = { config: { older: '2021-01-01T20:12:19', middle: '2022-01-01T20:12:19' }, stream_slice: { newer: '2022-06-24T20:12:19' } };
    expect(minMax("{{ config['middle'] }}", "{{ config['older'] }}", "{{ stream_slice['newer'] }}", custom, '%Y-%m-%dT%H:%M:%S')).toBe(
      '2022-01-01T20:12:19+00:00',
    );
  });

  it('a date in digits is re-typed to an int, then read back as text', () => {
    const digits = { config: { older: '20210101', middle: '20220101' }, stream_slice: { newer: '20220624' } };
    expect(interpolate("{{ config['middle'] }}", digits)).toBe(20220101);
    expect(minMax("{{ config['middle'] }}", "{{ config['older'] }}", "{{ stream_slice['newer'] }}", digits, '%Y%m%d')).toBe('2022-01-01T00:00:00+00:00');
  });

  it.each<[string, Record<string, string>, string]>([
    ['no bounds in parameters', {}, '2022-01-10T00:00:00+00:00'],
    ['a min in parameters', { min_datetime: '2022-01-20T00:00:00' }, '2022-01-20T00:00:00+00:00'],
    ['a max in parameters', { max_datetime: '2021-01-01T00:00:00' }, '2021-01-01T00:00:00+00:00'],
  ])('lazy bounds: %s (a missing parameter renders "", so the bound is ignored)', (_, parameters, expected) => {
    expect(minMax('2022-01-10T00:00:00', '{{ parameters.min_datetime }}', '{{ parameters.max_datetime }}', { parameters }, '%Y-%m-%dT%H:%M:%S')).toBe(expected);
  });
});

describe('CDK facts: DatetimeParser', () => {
  it.each<[string, string, string]>([
    ['2021-01-01T00:00:00.000000+0000', '%Y-%m-%dT%H:%M:%S.%f%z', '2021-01-01T00:00:00+00:00'],
    ['2021-01-01T00:00:00.000000+0400', '%Y-%m-%dT%H:%M:%S.%f%z', '2021-01-01T00:00:00+04:00'],
    ['1609459200', '%s', '2021-01-01T00:00:00+00:00'],
    ['1675092508.873709', '%s_as_float', '2023-01-30T15:28:28.873709+00:00'],
    ['1675092508873709', '%epoch_microseconds', '2023-01-30T15:28:28.873709+00:00'],
    ['1609459200001', '%ms', '2021-01-01T00:00:00.001000+00:00'],
    ['20210101', '%Y%m%d', '2021-01-01T00:00:00+00:00'],
    ['2021-11-22T08:41:55.640Z', '%Y-%m-%dT%H:%M:%S.%_msZ', '2021-11-22T08:41:55.640000+00:00'],
  ])('parses %s with %s', (input, format, expected) => {
    expect(parseDatetime(input, format).isoformat()).toBe(expected);
  });

  it.each<[string, string, string]>([
    ['2021-01-01T00:00:00+0000', '%s', '1609459200'],
    ['2021-01-01T00:00:00.001000+0000', '%ms', '1609459200001'],
    ['2023-01-30T15:28:28.873709+0000', '%s_as_float', '1675092508.873709'],
    ['2023-01-30T15:28:28.873709+0000', '%epoch_microseconds', '1675092508873709'],
    ['2021-01-01T00:00:00+0000', '%Y-%m-%d', '2021-01-01'],
    ['2021-01-01T00:00:00+0000', '%Y%m%d', '20210101'],
    ['2021-11-22T08:41:55.640000+0000', '%Y-%m-%dT%H:%M:%S.%_msZ', '2021-11-22T08:41:55.640Z'],
  ])('formats %s with %s', (iso, format, expected) => {
    expect(formatDatetime(parseDatetime(iso, iso.includes('.') ? '%Y-%m-%dT%H:%M:%S.%f%z' : '%Y-%m-%dT%H:%M:%S%z'), format)).toBe(expected);
  });
});

describe('CDK behaviour: literal_eval re-typing of the rendered text', () => {
  it.each<[string, unknown]>([
    ['123', 123],
    ['0123', '0123'],
    ['007', '007'],
    ['1e5', 100000],
    ['1_000', 1000],
    ['0x1F', 31],
    ['True', true],
    ['true', 'true'],
    ['None', null],
    ['null', 'null'],
    ["'quoted'", 'quoted'],
    ["[1, 'a']", [1, 'a']],
    ["{'a': 1}", { a: 1 }],
    ['{"a": 1}', { a: 1 }],
    ['{"a": true}', '{"a": true}'],
    ['(1, 2)', [1, 2]],
    ['{1, 2}', [1, 2]],
    ['1,2', [1, 2]],
    ['1 2', '1 2'],
    [' 5', 5],
    ['5 ', 5],
    ['-5', -5],
    ['2021-09-01', '2021-09-01'],
    ['2021-10-10', '2021-10-10'],
    ['1j', '1j'],
    ['nan', 'nan'],
    ['1.0', 1],
    ['12345678901234567890', 12345678901234567890n],
    ['', null],
    ['abc==', 'abc=='],
    ['https://x/y?page=2', 'https://x/y?page=2'],
    ['700', 700],
  ])('a config string %j becomes %s', (value, expected) => {
    expect(jinja("{{ config['v'] }}", { config: { v: value } })).toEqual(expected);
  });

  it.each<[unknown, unknown]>([
    [5, 5],
    [true, true],
    [null, null],
    [{ a: [1, null, true] }, { a: [1, null, true] }],
    [0, 0],
  ])('a config value %j round-trips through its Python text', (value, expected) => {
    expect(jinja("{{ config['v'] }}", { config: { v: value } })).toEqual(expected);
  });

  it.each<[string, unknown]>([
    ['plain string', 'plain string'],
    ['42', 42],
    ['[1,2]', [1, 2]],
    ['', null],
    ["{{ '' }}", null],
  ])('a template %j without variables gives %j', (template, expected) => {
    expect(jinja(template)).toEqual(expected);
  });

  it('mixed text stays text, but two renders that make a number are a number', () => {
    expect(jinja("x{{ config['a'] }}", { config: { a: 1 } })).toBe('x1');
    expect(jinja("{{ config['a'] }}{{ config['b'] }}", { config: { a: 1, b: 2 } })).toBe(12);
    expect(jinja("{{ config['a'] }}/path", { config: {} })).toBe('/path');
  });

  it('validTypes keeps the text when the value is of another type', () => {
    expect(jinja('{{ 1 }}', {}, { validTypes: ['str'] })).toBe('1');
    expect(jinja('{{ True }}', {}, { validTypes: ['int'] })).toBe(true);
    expect(jinja("{{ 'x' }}", {}, { validTypes: ['int'] })).toBe('x');
  });

  it('a dict key named __proto__ is an ordinary key, and nothing is polluted', () => {
    const result = jinja("{{ config['v'] }}", { config: { v: "{'__proto__': {'polluted': 1}}" } }) as Record<string, unknown>;
    expect(Object.keys(result)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('CDK behaviour: undefined values and defaults', () => {
  it.each<[string, InterpolationContext, unknown]>([
    ["{{ config['a']['b'] }}", {}, null],
    ['{{ config.a.b }}', {}, null],
    ['{{ next_page_token }}', { next_page_token: null }, null],
    ["{{ headers['link'] }}", { headers: { link: '<a>' } }, '<a>'],
    ["{{ config.get('x', 'd') }}", {}, 'd'],
    ['{{ config.x }}', { config: { x: 1 } }, 1],
    ["{{ config['d'] | default('dflt') }}", {}, 'dflt'],
    ["{{ config['a'] is defined }}", {}, false],
    ["{{ config['a'] is not defined }}", {}, true],
    ["{{ config['a'] is defined }}", { config: { a: 1 } }, true],
    ['{{ config.__class__ }}', {}, null],
  ])('%s gives %j', (template, context, expected) => {
    expect(jinja(template, context)).toEqual(expected);
  });

  it.each<[string, InterpolationContext]>([
    ["{{ next_page_token['x'] }}", {}],
    ["{{ next_page_token['x'] if next_page_token else 'none' }}", {}],
    ['{{ range(3) | list }}', {}],
  ])('%s: a variable not in the context is refused before rendering, even behind a guard', (template, context) => {
    expect(failure(() => jinja(template, context)).message).toContain('undeclared variables');
  });

  it('a TypeError while rendering gives the raw template text back, as the CDK does', () => {
    expect(jinja("{{ config['a'] + 1 }}", { config: { a: 'x' } })).toBe("{{ config['a'] + 1 }}");
    expect(jinja("{{ config['a'] + 1 }}", { config: { a: 1 } })).toBe(2);
    expect(jinja("{{ config['a'] | int + 1 }}", { config: { a: 'x' } })).toBe(1);
  });

  it('InterpolatedString gives "" where JinjaInterpolation gives None', () => {
    expect(interpolatedString("{{ config['missing'] }}")).toBe('');
    expect(interpolatedString('')).toBe('');
    expect(interpolatedString("{{ config['v'] }}", { config: { v: '0' } })).toBe(0);
    expect(jinja("{{ config['missing'] }}")).toBeNull();
    expect(interpolate("{{ config['missing'] }}", {}, { default: "{{ 'fallback' }}" })).toBe('fallback');
  });

  it('InterpolatedString fails where the undefined value is used in an operation (its default is the same template)', () => {
    expect(failure(() => interpolatedString("{{ config['a']['b'] }}")).message).toContain('undefined value');
  });
});

describe('CDK behaviour: InterpolatedBoolean truthiness', () => {
  it.each<[string, InterpolationContext, boolean]>([
    ['{{ None }}', {}, true],
    ["{{ config.get('missing') }}", {}, true],
    ["{{ config['missing'] }}", {}, false],
    ["{{ 'False' }}", {}, false],
    ['{{ 0.0 }}', {}, false],
    ["{{ '0' }}", {}, false],
    ["{{ 'no' }}", {}, true],
    ['{{ [] }}', {}, false],
    ["{{ response.get('has_more') }}", { response: { has_more: false } }, false],
    ["{{ not response.get('next') }}", { response: {} }, true],
    ["{{ response.get('next') is none }}", { response: { next: null } }, true],
    ['', {}, false],
  ])('%j is %s', (condition, context, expected) => {
    expect(interpolateBoolean(condition, context)).toBe(expected);
  });
});

describe('CDK behaviour: Jinja and Python semantics', () => {
  it.each<[string, InterpolationContext, unknown]>([
    ["{{ config['list'] | length }}", { config: { list: [1, 2, 3] } }, 3],
    ["{{ config['s'] | lower }}", { config: { s: 'AbC' } }, 'abc'],
    ["{{ config['l'] | join(',') }}", { config: { l: ['a', 'b'] } }, 'a,b'],
    ["{{ ','.join(config['l']) }}", { config: { l: ['a', 'b'] } }, 'a,b'],
    ["{{ config['s'].split(',')[0] }}", { config: { s: 'a,b' } }, 'a'],
    ["{{ config['s'][0:2] }}", { config: { s: 'abcdef' } }, 'ab'],
    ["{{ config['n'] | int + 1 }}", { config: { n: '41' } }, 42],
    ["{{ config['f'] | float }}", { config: { f: '1.5' } }, 1.5],
    ["{{ 'a' ~ 1 }}", {}, 'a1'],
    ['{{ 7 // 2 }}', {}, 3],
    ['{{ 7 / 2 }}', {}, 3.5],
    ['{{ 2 ** 10 }}', {}, 1024],
    ["{{ 'x' if config.get('a') is none else 'y' }}", {}, 'x'],
    ['{{ config | tojson }}', { config: { a: 1 } }, { a: 1 }],
    ['{{ record.items() | list }}', { record: { a: 1 } }, [['a', 1]]],
    ['{% if config.a %}yes{% else %}no{% endif %}', { config: { a: 1 } }, 'yes'],
    ['{% set x = 3 %}{{ x * 2 }}', {}, 6],
    ["{{ {'a': config['v']} }}", { config: { v: 1 } }, { a: 1 }],
    ["{{ [config['v']] }}", { config: { v: 's' } }, ['s']],
    ["{{ config['v'] | string }}", { config: { v: 5 } }, '5'],
    ["{{ config['v'] | string }}", { config: { v: '5' } }, 5],
    ["{{ config['v'] | hash('sha256') }}", { config: { v: 'x' } }, '2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881'],
    ["{{ config['v'] | base64encode }}", { config: { v: 'user:pass' } }, 'dXNlcjpwYXNz'],
    ["{{ config['v'] | urlencode }}", { config: { v: 'a b&c' } }, 'a%20b%26c'],
    ["{{ config['v'] | regex_search('id=(\\\\d+)') }}", { config: { v: 'x?id=42' } }, 42],
    ["{{ max(config['a'], config['b']) }}", { config: { a: '2024-01-01', b: '2023-12-31' } }, '2024-01-01'],
    ["{{ camel_case_to_snake_case('HelloWorld') }}", {}, 'hello_world'],
    ['{{ stream_interval.start_time }}', { stream_slice: { start_time: '2024-01-01T00:00:00Z', end_time: '2024-01-31T23:59:59Z' } }, '2024-01-01T00:00:00Z'],
    ['{{ stream_partition.parent_id }}', { stream_slice: { parent_id: 7 } }, 7],
    ["{{ stream_slice.get('x') }}", { stream_slice: new StreamSlice({ partition: { x: 1 }, cursor_slice: { start_time: 'a' } }) }, 1],
    ["{{ stream_partition['x'] }}", { stream_slice: new StreamSlice({ partition: { x: 1 }, cursor_slice: { start_time: 'a' } }) }, 1],
    ["{{ response.get('next') }}", { response: { next: 'https://x/y?page=2' } }, 'https://x/y?page=2'],
    ["{{ response['data'] | length }}", { response: { data: [1, 2] } }, 2],
    ["{{ last_record['id'] }}", { last_record: { id: '007' } }, '007'],
    ["{{ last_record['id'] }}", { last_record: { id: '700' } }, 700],
    ["{{ format_datetime('2024-02-29T10:11:12Z', '%s') }}", {}, 1709201472],
    ["{{ format_datetime(config['d'], '%Y-%m-%d') }}", { config: { d: '2024-02-29T23:30:00-02:00' } }, '2024-03-01'],
    ["{{ str_to_datetime('2024-02-29') }}", {}, '2024-02-29 00:00:00+00:00'],
    ["{{ timestamp('2024-02-29T00:00:00Z') }}", {}, 1709164800],
  ])('%s gives %j', (template, context, expected) => {
    expect(jinja(template, context)).toEqual(expected);
  });

  it.each<[string, string, unknown]>([
    ["{{ now_utc().strftime('%Y-%m-%d') }}", '2024-02-29T10:11:12Z', '2024-02-29'],
    ['{{ now_utc() }}', '2024-02-29T10:11:12Z', '2024-02-29 10:11:12+00:00'],
    ['{{ now_utc().isoformat() }}', '2024-02-29T10:11:12Z', '2024-02-29T10:11:12+00:00'],
    ["{{ (now_utc() - duration('PT1H')).strftime('%Y-%m-%dT%H:%M:%SZ') }}", '2024-02-29T10:11:12Z', '2024-02-29T09:11:12Z'],
    ["{{ format_datetime(now_utc(), '%s') }}", '2024-02-29T10:11:12Z', 1709201472],
    ["{{ day_delta(-7, format='%Y-%m-%d') }}", '2024-03-01T00:00:00Z', '2024-02-23'],
    ["{{ today_utc() - duration('P1D') }}", '2024-03-01T00:00:00Z', '2024-02-29'],
    ['{{ today_utc().isoformat() }}', '2024-03-01T00:00:00Z', '2024-03-01'],
    ["{{ (today_utc() - duration('P7D')).strftime('%Y-%m-%d') }}", '2024-03-01T00:00:00Z', '2024-02-23'],
  ])('%s at %s gives %j', (template, now, expected) => {
    expect(jinja(template, {}, { now: new Date(now) })).toEqual(expected);
  });
});

describe('what real manifests write', () => {
  const now = new Date('2024-05-17T08:09:10.123Z');
  it.each<[string, InterpolationContext, unknown]>([
    ["{{ config['start_date'] }}", { config: { start_date: '2023-01-01T00:00:00Z' } }, '2023-01-01T00:00:00Z'],
    ["{{ config.get('page_size', 100) }}", {}, 100],
    ["{{ response.get('next_page_url') }}", { response: { next_page_url: null } }, null],
    ["{{ response.get('meta', {}).get('next_cursor') }}", { response: { meta: { next_cursor: 'abc' } } }, 'abc'],
    [
      "{{ headers.get('link', {}).get('next', {}).get('url') }}",
      { headers: { link: { next: { url: 'https://api.example.com/items?page=2', rel: 'next' } } } },
      'https://api.example.com/items?page=2',
    ],
    ['{{ next_page_token.next_page_token }}', { next_page_token: { next_page_token: 'tok' } }, 'tok'],
    ["{{ last_record['updated_at'] }}", { last_record: { updated_at: '2024-05-01' } }, '2024-05-01'],
    ['{{ last_page_size }}', { last_page_size: 50 }, 50],
    ["{{ not response.get('has_more', False) }}", { response: { has_more: true } }, false],
    ["{{ response.get('data') | length < 100 }}", { response: { data: [1, 2] } }, true],
    ['{{ response.total_count <= (last_page_size * 2) }}', { response: { total_count: 150 }, last_page_size: 100 }, true],
    ["{{ config['api_key'] ~ ':' ~ config['secret'] }}", { config: { api_key: 'k', secret: 's' } }, 'k:s'],
    ["{{ (config['api_key'] ~ ':') | base64encode }}", { config: { api_key: 'k' } }, 'azo='],
    ["{{ config['region'] | lower }}.api.example.com", { config: { region: 'EU' } }, 'eu.api.example.com'],
    ["{{ config['domain'].split('.')[0] }}", { config: { domain: 'acme.zendesk.com' } }, 'acme'],
    ["{{ config['tags'] | join(',') }}", { config: { tags: ['a', 'b'] } }, 'a,b'],
    ["{{ ','.join(config.get('ids', [])) }}", { config: { ids: ['1', '2'] } }, [1, 2]],
    ["{{ config['site'].replace('https://', '').strip('/') }}", { config: { site: 'https://acme.example.com/' } }, 'acme.example.com'],
    ['{{ stream_partition.parent_id }}', { stream_slice: { parent_id: 'p1' } }, 'p1'],
    ["{{ stream_slice['start_time'][:10] }}", { stream_slice: { start_time: '2024-01-01T00:00:00Z' } }, '2024-01-01'],
    ["{{ stream_interval.start_time | replace('Z', '') }}", { stream_slice: { start_time: '2024-01-01T00:00:00Z' } }, '2024-01-01T00:00:00'],
    ["{{ record['id'] | string }}", { record: { id: 42 } }, '42'],
    ["{{ record.get('amount') | float }}", { record: { amount: '12.50' } }, 12.5],
    ["{{ record['id'] | int }}", { record: { id: '0042' } }, 42],
    ["{{ record['email'] | hash('md5') }}", { record: { email: 'a@b.c' } }, '5d60d4e28066df254d5452f92c910092'],
    [
      "{{ record['items'] | selectattr('type', 'equalto', 'primary') | map(attribute='id') | first }}",
      {
        record: {
          items: [
            { type: 'other', id: 1 },
            { type: 'primary', id: 2 },
          ],
        },
      },
      2,
    ],
    ["{{ record['items'] | map(attribute='id') | list }}", { record: { items: [{ id: 1 }, { id: 2 }] } }, [1, 2]],
    ["{{ config['q'] | urlencode }}", { config: { q: 'a/b c' } }, 'a/b%20c'],
    ["{{ config.get('lookback_days') | default(7) }}", { config: {} }, null],
    ["{{ config['missing'] | default(7) }}", { config: {} }, 7],
    ["{{ 'yes' if config['flag'] is false else 'no' }}", { config: { flag: false } }, 'yes'],
    ["{{ config['x'] is not none }}", { config: { x: 0 } }, true],
    ["{{ 'a' in config['letters'] and 'z' not in config['letters'] }}", { config: { letters: 'abc' } }, true],
    ["{{ config['n'] * 2 + 1 }}", { config: { n: 3 } }, 7],
    ["{{ config['a'] or config['b'] }}", { config: { a: '', b: 'fallback' } }, 'fallback'],
    ["{% if config['full'] %}all{% else %}{{ config['n'] }}{% endif %}", { config: { full: false, n: 5 } }, 5],
    ["{% set base = config['base'] %}{{ base }}/v2", { config: { base: 'https://x' } }, 'https://x/v2'],
    ["{{ now_utc().strftime('%Y-%m-%dT%H:%M:%SZ') }}", {}, '2024-05-17T08:09:10Z'],
    ["{{ (now_utc() - duration('P30D')).strftime('%Y-%m-%d') }}", {}, '2024-04-17'],
    ["{{ now_utc().strftime('%s') }}", {}, 1715933350],
    ["{{ format_datetime(config['start_date'], '%Y-%m-%dT%H:%M:%S.%fZ') }}", { config: { start_date: '2024-01-02' } }, '2024-01-02T00:00:00.000000Z'],
    ["{{ format_datetime(stream_interval.start_time, '%d/%m/%Y %H:%M') }}", { stream_slice: { start_time: '2024-01-02T03:04:05Z' } }, '02/01/2024 03:04'],
    ["{{ timestamp(config['start_date']) | int }}", { config: { start_date: '2024-01-01T00:00:00Z' } }, 1704067200],
    ['{{ today_utc() }}', {}, '2024-05-17'],
    ['{{ now_utc().isoformat() }}', {}, '2024-05-17T08:09:10.123000+00:00'],
    ["{{ config['start_date'] if config['start_date'] else day_delta(-30, format='%Y-%m-%d') }}", { config: { start_date: '' } }, '2024-04-17'],
    ["{{ response['links']['next'] | regex_search('page=(\\d+)') }}", { response: { links: { next: '/items?page=3' } } }, 3],
    ["{{ response.get('data', [{}])[-1].get('id') }}", { response: { data: [{ id: 'a' }, { id: 'b' }] } }, 'b'],
  ])('%s gives %j', (template, context, expected) => {
    expect(jinja(template, context, { now })).toEqual(expected);
  });
});

describe('request inputs keep text where the CDK keeps text', () => {
  const context = { config: { limit: 100, flag: true, ids: "['a', 'b']" }, next_page_token: { next_page_token: 'abc' } };

  it('parameters and form data re-type only str and list; an empty value is dropped, a rendered None is text as in the CDK', () => {
    const input = {
      limit: "{{ config['limit'] }}",
      flag: "{{ config['flag'] }}",
      ids: "{{ config['ids'] }}",
      obj: "{{ {'a': 1} }}",
      cursor: "{{ next_page_token.get('next_page_token') }}",
      gone: "{{ config.get('nothing') }}",
      empty: "{{ config['nothing'] }}",
    };
    expect(interpolateRequestInput('request_parameters', input, context)).toEqual({
      limit: '100',
      flag: 'True',
      ids: ['a', 'b'],
      obj: "{'a': 1}",
      cursor: 'abc',
      gone: 'None',
    });
    expect(interpolateRequestInput('request_body_data', { n: '{{ 1 + 1 }}' }, context)).toEqual({ n: '2' });
  });

  it('headers are re-typed, then printed with str()', () => {
    expect(
      interpolateRequestInput('request_headers', { 'X-Limit': "{{ config['limit'] }}", 'X-Flag': "{{ config['flag'] }}", 'X-None': '{{ None }}' }, context),
    ).toEqual({ 'X-Limit': '100', 'X-Flag': 'True' });
  });

  it('the JSON body keeps types at every depth and drops None-valued entries', () => {
    const body = {
      page: { size: "{{ config['limit'] }}", cursor: '{{ next_page_token.next_page_token }}', missing: "{{ config.get('x') }}" },
      filters: ['{{ 1 }}', '{{ None }}'],
    };
    expect(interpolateRequestInput('request_body_json', body, context)).toEqual({ page: { size: 100, cursor: 'abc' }, filters: [1, null] });
  });

  it('a string input is one template', () => {
    expect(interpolateRequestInput('request_body_data', "a={{ config['limit'] }}", context)).toBe('a=100');
  });

  it('a mapping key that renders to nothing drops its entry (deliberately unlike the CDK, which sends a None key)', () => {
    expect(interpolateMapping({ "{{ config['name'] }}": 'v', k: 'w' }, {})).toEqual({ k: 'w' });
    // A key that renders the text None is the text "None", as in the CDK.
    expect(interpolateMapping({ "{{ config.get('name') }}": 'v' }, {})).toEqual({ None: 'v' });
  });
});

describe('the sandbox', () => {
  it.each<[string, InterpolationContext]>([
    ['{{ config.constructor }}', { config: { a: 1 } }],
    ["{{ config['constructor'] }}", { config: { a: 1 } }],
    ['{{ config.__proto__ }}', { config: { a: 1 } }],
    ["{{ config['__proto__'] }}", { config: { a: 1 } }],
    ['{{ config.toString }}', { config: { a: 1 } }],
    ['{{ config.hasOwnProperty }}', { config: { a: 1 } }],
    ["{{ ''.constructor }}", {}],
    ["{{ ''.__class__.__mro__ }}", {}],
    ['{{ [].constructor }}', {}],
    ["{{ config['list'].map }}", { config: { list: [1] } }],
    ['{{ (1).constructor }}', {}],
    ['{{ now_utc.constructor }}', {}],
    ['{{ now_utc().constructor }}', {}],
    ['{{ now_utc().__proto__ }}', {}],
    ['{{ duration.call }}', {}],
    ['{{ config.__class__ }}', {}],
    ['{{ record.prototype }}', { record: {} }],
    ["{{ config['a'].valueOf }}", { config: { a: 'x' } }],
  ])('%s is nothing', (template, context) => {
    expect(jinja(template, context)).toBeNull();
  });

  it.each([
    "{{ ''.constructor.constructor('return process')() }}",
    "{{ config.constructor.constructor('return process')() }}",
    "{{ now_utc.constructor('return process')() }}",
    '{{ config.__proto__.polluted }}',
  ])('%s reaches no function: None, or an undefined-value error where the default is the template', (template) => {
    expect(jinja(template, { config: {} })).toBeNull();
    expect(failure(() => interpolatedString(template, { config: {} })).message).toContain('undefined value');
  });

  it('an object of a class from the context is opaque', () => {
    class Secret {
      token = 'hidden';
    }
    expect(jinja('{{ config.client.token }}', { config: { client: new Secret() } })).toBeNull();
  });

  it.each(['{{ 1 | constructor }}', '{{ 1 is constructor }}', '{{ 1 | __proto__ }}', '{{ 1 is toString }}'])('%s is no filter or test', (template) => {
    expect(failure(() => jinja(template)).message).toContain('syntax error');
  });

  it('map() with a filter name that is a JavaScript property fails instead of calling it', () => {
    failure(() => jinja("{{ config['l'] | map('constructor') | list }}", { config: { l: [1] } }));
  });

  it('refuses list.append and dict.update (deliberately unlike the CDK, whose sandbox lets them change the data)', () => {
    const config = { list: [1], dict: { a: 1 } };
    expect(failure(() => jinja("{{ config['list'].append(2) }}", { config })).message).toContain('not allowed');
    expect(failure(() => jinja("{{ config['dict'].update({'b': 2}) }}", { config })).message).toContain('not allowed');
    expect(config).toEqual({ list: [1], dict: { a: 1 } });
  });

  it('{% set %} changes no input', () => {
    const config = { a: 1 };
    expect(jinja("{% set config = {'a': 2} %}{{ config['a'] }}", { config })).toBe(2);
    expect(config).toEqual({ a: 1 });
  });

  it('runs regular expressions in linear time: a pattern that backtracks exponentially in Python is quick here', () => {
    // Every matcher step ticks the step budget (1,000,000 by default): finishing within it proves the work bounded, whatever the clock.
    const stepsOnly = { maxMilliseconds: 600_000 };
    expect(jinja("{{ config['s'] | regex_search('(a+)+$') }}", { config: { s: `${'a'.repeat(5000)}!` } }, stepsOnly)).toBeNull();
    expect(jinja("{{ config['s'] | regex_search('(.*a){12}x') }}", { config: { s: 'a'.repeat(200) } }, stepsOnly)).toBeNull();
  });

  it('refuses what a linear-time matcher cannot do: backreferences and lookaround', () => {
    expect(failure(() => jinja("{{ config['s'] | regex_search('(a)\\\\1') }}", { config: { s: 'aa' } })).message).toContain('backreferences');
    expect(failure(() => jinja("{{ config['s'] | regex_search('a(?=b)') }}", { config: { s: 'ab' } })).message).toContain('lookahead');
  });

  it('a regular expression on a huge text stops at the step budget', () => {
    expect(failure(() => jinja("{{ config['s'] | regex_search('(a|b)*c') }}", { config: { s: 'ab'.repeat(400_000) } })).message).toContain('limit exceeded');
  });

  it('translates Python regular expressions', () => {
    expect(jinja("{{ config['s'] | regex_search('(?P<n>\\\\d+)$') }}", { config: { s: 'page 12\n' } })).toBe(12);
    expect(jinja("{{ config['s'] | regex_replace('(?P<w>\\\\w+)@', '\\\\g<w> at ') }}", { config: { s: 'me@x' } })).toBe('me at x');
  });
});

describe('Python regular expressions (regex_search gives group 1, regex_replace is re.sub)', () => {
  it.each<[string, string, unknown]>([
    ['(a|ab)(c|bcd)(d*)', 'abcd', 'a'],
    ['(a*?)(a*)', 'aaa', null],
    ['<(.*?)>', '<a><b>', 'a'],
    ['<(.*)>', '<a><b>', 'a><b'],
    ['(?i)HELLO (\\w+)', 'hello World', 'World'],
    ['(\\d{2,3})', 'a12345', 123],
    ['^(\\d+)$', '12\n', 12],
    ['(?m)^(b)$', 'a\nb\nc', 'b'],
    ['([^a-c]+)', 'abcdef', 'def'],
    ['(a)|(b)', 'b', null],
    ['(?P<year>\\d{4})-(?P<m>\\d\\d)', 'on 2024-05', 2024],
    ['(x{)', 'ax{', 'x{'],
    ['([]a]+)', 'x]a]', ']a]'],
    ['(?s)(a.b)', 'a\nb', 'a\nb'],
    ['(a.b)', 'a\nb', null],
    ['\\$skiptoken=([^&]+)', 'https://x/?$skiptoken=abc&y=1', 'abc'],
    ['\\b(foo)\\b', 'afoo b', null],
  ])('re.search(%j, %j) group 1 is %j', (pattern, subject, expected) => {
    expect(jinja('{{ s | regex_search(p) }}', { p: pattern, s: subject })).toEqual(expected);
  });

  it.each<[string, string, string, string]>([
    ['x*', '-', 'abxd', '-a-b--d-'],
    ['(\\w+)@(\\w+)', '\\2 at \\1', 'me@host', 'host at me'],
    ['(?P<y>\\d{4})', '[\\g<y>]', 'x2024y', 'x[2024]y'],
    ['', '-', 'ab', '-a-b-'],
  ])('re.sub(%j, %j, %j) is %j', (pattern, replacement, subject, expected) => {
    expect(jinja('{{ s | regex_replace(p, r) }}', { p: pattern, r: replacement, s: subject })).toBe(expected);
  });
});

describe('bounds', () => {
  const list = Array.from({ length: 1000 }, (_, index) => index);

  it('stops a template that loops too long, with a clear error', () => {
    // The default step bound; the wall clock widened so a loaded machine still meets the step bound first.
    const error = failure(() =>
      jinja(
        '{% for a in config.l %}{% for b in config.l %}{% for c in config.l %}{% endfor %}{% endfor %}{% endfor %}',
        { config: { l: list } },
        { maxMilliseconds: 600_000 },
      ),
    );
    expect(error.message).toContain('evaluation steps');
  });

  it('stops a template on the wall clock too', () => {
    const error = failure(() =>
      jinja(
        '{% for a in config.l %}{% for b in config.l %}{% for c in config.l %}{{ c }}{% endfor %}{% endfor %}{% endfor %}',
        { config: { l: list } },
        { maxSteps: 1e12, maxMilliseconds: 50, maxOutputLength: 1e12 },
      ),
    );
    expect(error.message).toContain('longer than 50 ms');
  });

  it.each<[string, InterpolationContext]>([
    ["{{ 'x' * 2000000 }}", {}],
    ['{{ config.s * 1000000000 }}', { config: { s: 'abc' } }],
    ['{{ [1] * 10000000 }}', {}],
    ['{% for i in config.l %}{{ config.s }}{% endfor %}', { config: { l: list, s: 'x'.repeat(2000) } }],
    ["{{ config.s.replace('a', config.s) }}", { config: { s: 'a'.repeat(2000) } }],
    ['{{ config.s ~ config.s }}', { config: { s: 'y'.repeat(600_000) } }],
    ['{{ 2 ** 100000 }}', {}],
  ])('stops %s at the output bound', (template, context) => {
    expect(failure(() => jinja(template, context)).message).toContain('limit exceeded');
  });

  it('the output bound can be set', () => {
    expect(failure(() => jinja("{{ 'x' * 11 }}", {}, { maxOutputLength: 10 })).message).toContain('longer than 10');
    expect(jinja("{{ 'x' * 10 }}", {}, { maxOutputLength: 10 })).toBe('x'.repeat(10));
  });

  it('a cyclic context object stops at the nesting bound', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(failure(() => jinja('{{ config }}', { config: cyclic })).message).toContain('nested');
  });

  it('deeply nested template syntax is refused', () => {
    expect(failure(() => jinja(`{{ ${'('.repeat(500)}1${')'.repeat(500)} }}`)).message).toContain('syntax error');
  });
});

describe('errors', () => {
  it('are typed, name the template (truncated) and the problem, and carry no context value', () => {
    const config = { api_key: 'sk-live-SECRET', start: 'also-SECRET' };
    const long = `{{ str_to_datetime(config['start']) }}${' '.repeat(300)}`;
    const error = failure(() => jinja(long, { config }));
    expect(error).toBeInstanceOf(PlugboardError);
    expect(error.status).toBe(422);
    expect(error.error_code).toBe('manifest_interpolation_failed');
    expect(error.message).toContain("str_to_datetime(config['start'])");
    expect(error.message).toContain('…');
    expect(error.message).toContain('not an ISO 8601 date');
    for (const template of [
      "{{ config['api_key'] | base64decode }}",
      '{{ config.api_key.nope.nope }}',
      '{{ undeclared_name }}',
      "{{ config['api_key'] | hash('nope') }}",
      "{{ config['api_key'] | int / 0 }}",
    ]) {
      const failed = failure(() => interpolatedString(template, { config }));
      expect(JSON.stringify(failed.toJSON())).not.toContain('SECRET');
    }
  });

  it('a syntax error says so', () => {
    expect(failure(() => jinja('{{ config[ }}')).message).toMatch(/^Cannot interpolate "\{\{ config\[ \}\}": syntax error/);
    expect(failure(() => jinja('{% if x %}')).message).toContain('syntax error');
    expect(failure(() => jinja('{% macro m() %}{% endmacro %}')).message).toContain("unknown tag 'macro'");
  });

  it('stream_state works only for manifests older than CDK 6.34', () => {
    expect(failure(() => jinja("{{ stream_state.get('updated_at') }}", { stream_state: { updated_at: 'x' } })).message).toContain('stream_state');
    expect(jinja("{{ stream_state.get('updated_at') }}", { stream_state: { updated_at: '2024-01-01' } }, { allowStreamState: true })).toBe('2024-01-01');
  });

  it('division by zero fails (a ZeroDivisionError is not a TypeError in the CDK either)', () => {
    expect(failure(() => jinja('{{ 1 / 0 }}')).message).toContain('division by zero');
  });
});

describe('dates and times', () => {
  const dt = utc('2024-02-29T13:05:09+0000');
  it.each<[string, string]>([
    ['%Y-%m-%d %H:%M:%S', '2024-02-29 13:05:09'],
    ['%y %j %a %A %b %B', '24 060 Thu Thursday Feb February'],
    ['%I:%M %p', '01:05 PM'],
    ['%z %Z', '+0000 UTC'],
    ['%f', '000000'],
    ['%s', '1709211909'],
    ['%%Y', '%Y'],
    ['%-d/%-m', '29/2'],
    ['%U %W %u %w', '08 09 4 4'],
  ])('strftime %s', (format, expected) => {
    expect(jinja('{{ d.strftime(f) }}', { d: dt, f: format }, { validTypes: ['str'] })).toBe(expected);
  });

  it('durations with months add on the calendar, clamping the day', () => {
    expect(jinja("{{ (d + duration('P1M')).strftime('%Y-%m-%d') }}", { d: utc('2024-01-31T00:00:00+0000') })).toBe('2024-02-29');
    expect(jinja("{{ (d - duration('P1Y')).isoformat() }}", { d: utc('2024-02-29T00:00:00+0000') })).toBe('2023-02-28T00:00:00+00:00');
    expect(jinja("{{ duration('PT0.000001S') }}")).toBe('0:00:00.000001');
    expect(jinja("{{ duration('-PT1H') }}")).toBe('-1 day, 23:00:00');
  });

  it('datetimes compare and subtract', () => {
    expect(jinja("{{ str_to_datetime('2024-01-02') > str_to_datetime('2024-01-01') }}")).toBe(true);
    expect(jinja("{{ (str_to_datetime('2024-01-02') - str_to_datetime('2024-01-01')).total_seconds() }}")).toBe(86400);
    expect(jinja("{{ now_utc() - str_to_datetime('2021-08-31') }}")).toBe('1 day, 0:00:00');
  });

  it('today_with_timezone reads IANA zones', () => {
    const now = new Date('2024-01-01T03:00:00Z');
    expect(jinja("{{ today_with_timezone('America/Los_Angeles') }}", {}, { now })).toBe('2023-12-31');
    expect(jinja("{{ today_with_timezone('Europe/Paris') }}", {}, { now })).toBe('2024-01-01');
    failure(() => jinja("{{ today_with_timezone('Mars/Olympus') }}", {}, { now }));
  });
});

describe('the DatetimeParser fast paths give the general parser’s answers', () => {
  /** A parse as a comparable value: the instant, the offset and the wall clock, or the error's message. */
  const outcome = (parse: () => PyDateTime) => {
    try {
      const value = parse();
      return { iso: value.isoformat(), offset: value.offset, micros: value.epochMicros };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  /** What parseDatetime answered before the fast paths: strptime, a naive result read as UTC. */
  const general = (text: string, format: string) =>
    outcome(() => {
      const parsed = strptime(text, format.replaceAll('%_ms', '%f'));
      return parsed.aware ? parsed : parsed.withOffset(0);
    });

  const ISO_FRACTION_Z = '%Y-%m-%dT%H:%M:%S.%fZ';
  const ISO_OFFSET = '%Y-%m-%dT%H:%M:%S%z';
  const ISO_FRACTION_OFFSET = '%Y-%m-%dT%H:%M:%S.%f%z';
  it.each<[string, string, boolean]>([
    // canonical text: answered by the fast path
    ['2024-01-01T00:00:00.000Z', ISO_FRACTION_Z, true],
    ['2024-02-29T23:59:59.999999Z', ISO_FRACTION_Z, true],
    ['2024-03-10T12:34:56.1Z', ISO_FRACTION_Z, true],
    ['2024-03-10T12:34:56.12Z', ISO_FRACTION_Z, true],
    ['2024-03-10T12:34:56.12345Z', ISO_FRACTION_Z, true],
    ['0001-01-01T00:00:00.000001Z', ISO_FRACTION_Z, true],
    ['9999-12-31T23:59:59.999999Z', ISO_FRACTION_Z, true],
    ['2024-03-10T12:34:56Z', '%Y-%m-%dT%H:%M:%SZ', true],
    ['2024-03-10', '%Y-%m-%d', true],
    ['20240310', '%Y%m%d', true],
    ['2024-03-10T12:34:56+0530', ISO_OFFSET, true],
    ['2024-03-10T12:34:56+05:30', ISO_OFFSET, true],
    ['2024-03-10T12:34:56-08:00', ISO_OFFSET, true],
    ['2024-03-10T12:34:56-00:00', ISO_OFFSET, true],
    ['2024-03-10T12:34:56+99:59', ISO_OFFSET, true],
    ['2024-03-10T12:34:56Z', ISO_OFFSET, true],
    ['2024-03-10T12:34:56z', ISO_OFFSET, true],
    ['2024-03-10T12:34:56.640+0000', ISO_FRACTION_OFFSET, true],
    ['2021-11-22T08:41:55.640Z', '%Y-%m-%dT%H:%M:%S.%_msZ', true],
    ['12:34', '%H:%M', true],
    ['100%', '%Y%%', false],
    ['2024%', '%Y%%', true],
    // anything else: strptime's own answer or error
    ['2024-03-10t12:34:56.000z', ISO_FRACTION_Z, false],
    ['2024-3-10T12:34:56.000Z', ISO_FRACTION_Z, false],
    ['2024-03-1T2:3:4.000Z', ISO_FRACTION_Z, false],
    ['2024-03-10T12:34:56.1234567Z', ISO_FRACTION_Z, false],
    ['2024-03-10T12:34:56.Z', ISO_FRACTION_Z, false],
    ['2024-03-10T12:34:60.000Z', ISO_FRACTION_Z, false],
    ['2024-03-10T12:34:61.000Z', ISO_FRACTION_Z, false],
    ['2024-03-10T24:00:00.000Z', ISO_FRACTION_Z, false],
    ['2024-13-10T12:34:56.000Z', ISO_FRACTION_Z, false],
    ['2024-00-10T12:34:56.000Z', ISO_FRACTION_Z, false],
    ['2023-02-29T00:00:00.000Z', ISO_FRACTION_Z, false],
    ['2024-04-31T00:00:00.000Z', ISO_FRACTION_Z, false],
    ['0000-01-01T00:00:00.000Z', ISO_FRACTION_Z, false],
    ['2024-03-10T12:34:56.000Z ', ISO_FRACTION_Z, false],
    ['2024-03-10T12:34:56.000', ISO_FRACTION_Z, false],
    ['', ISO_FRACTION_Z, false],
    ['2024-03-10T12:34:56+05:30:15', ISO_OFFSET, false],
    ['2024-03-10T12:34:56+053015.5', ISO_OFFSET, false],
    ['2024-03-10T12:34:56+05:60', ISO_OFFSET, false],
    ['2024-03-10T12:34:56+5:30', ISO_OFFSET, false],
    ['2024-03-10T12:34:56 +05:30', ISO_OFFSET, false],
    ['2024-03-10 12:34:56', '%Y-%m-%d %H:%M:%S', false],
    ['2024111', '%Y%m%d', false],
    ['10/03/24', '%d/%m/%y', false],
    ['2024-03-10', '%Y-%m-%d%q', false],
  ])('%j with %s (fast path answers: %s)', (text, format, fast) => {
    expect(outcome(() => parseDatetime(text, format))).toEqual(general(text, format));
    expect(compileFixedWidth(format.replaceAll('%_ms', '%f'), 0)?.(text) !== undefined).toBe(fast);
  });

  it.each<[string | number, string, string]>([
    ['1609459200', '%s', '2021-01-01T00:00:00+00:00'],
    [1609459200, '%s', '2021-01-01T00:00:00+00:00'],
    [-1, '%s', '1969-12-31T23:59:59+00:00'],
    ['-1', '%s', '1969-12-31T23:59:59+00:00'],
    [-0, '%s', '1970-01-01T00:00:00+00:00'],
    ['+5', '%s', '1970-01-01T00:00:05+00:00'],
    [' 5 ', '%s', '1970-01-01T00:00:05+00:00'],
    ['1_000', '%s', '1970-01-01T00:16:40+00:00'],
    ['000000000000005', '%s', '1970-01-01T00:00:05+00:00'],
    ['253402300799', '%s', '9999-12-31T23:59:59+00:00'],
    ['1609459200001', '%ms', '2021-01-01T00:00:00.001000+00:00'],
    [1609459200999, '%ms', '2021-01-01T00:00:00.999000+00:00'],
    [-1, '%ms', '1969-12-31T23:59:59.999000+00:00'],
    [-1000, '%ms', '1969-12-31T23:59:59+00:00'],
    [-1001, '%ms', '1969-12-31T23:59:58.999000+00:00'],
    ['100000000000000', '%ms', '5138-11-16T09:46:40+00:00'],
    [100000000000001, '%ms', '5138-11-16T09:46:40.001000+00:00'],
    ['253402300799999', '%ms', '9999-12-31T23:59:59.999000+00:00'],
  ])('epoch %j with %s', (input, format, expected) => {
    expect(parseDatetime(input, format).isoformat()).toBe(expected);
  });

  it.each<[string | number, string]>([
    ['1.5', '%s'],
    [1.5, '%s'],
    ['', '%s'],
    ['1e3', '%s'],
    ['253402300800', '%s'],
    [Number.NaN, '%ms'],
    ['12a', '%ms'],
    ['253402300800000', '%ms'],
    ['999999999999999', '%ms'],
    ['9999999999999999', '%ms'],
    [1e16, '%ms'],
  ])('epoch %j with %s is an error', (input, format) => {
    expect(() => parseDatetime(input, format)).toThrow();
  });
});

describe('texts that start with a name are never literals', () => {
  it.each<[string, unknown]>([
    ['limit', 'limit'],
    ['X-Api-Key', 'X-Api-Key'],
    ['http://127.0.0.1:8000/api', 'http://127.0.0.1:8000/api'],
    ['_private', '_private'],
    ['Nonesuch', 'Nonesuch'],
    ['  spaced', '  spaced'],
    ['None', null],
    ['True', true],
    ['  False', false],
    ['set()', []],
    ['settings', 'settings'],
    ["r'raw'", 'raw'],
    ["u'text'", 'text'],
    ["f'text'", "f'text'"],
    ["b'bytes'", "b'bytes'"],
    ["x'text'", "x'text'"],
    ['Trueé', 'Trueé'],
    ['True\n', true],
  ])('%j re-types to %j', (value, expected) => {
    expect(jinja("{{ config['v'] }}", { config: { v: value } })).toEqual(expected);
  });
});

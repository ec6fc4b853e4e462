import type { SeededRandom } from '../../testing/seeded-random.ts';
import { bearer } from './hosted-fixture.ts';
import { forgedAuthorization } from './forged-tokens.ts';
import { deeplyNested, HOSTILE_KEYS, HOSTILE_SEGMENTS, HOSTILE_STRINGS, hostileSegment, urlValue, WRONG_TYPES } from './fuzz-values.ts';
import type { RawRequest } from './raw-http.ts';
import type { Json } from './schema-sample.ts';

/** One method on one path of /openapi.json. */
export interface Operation {
  method: string;
  /** The OpenAPI path, `{name}` for a path parameter. */
  path: string;
  pathParams: string[];
  /** The security schemes it accepts (operatorToken, scopedToken); empty when it takes no token. */
  auth: string[];
  /** The JSON Schema of its body, when it takes one. */
  bodySchema?: Record<string, unknown>;
}

/** A valid request for an operation, which the fuzzer changes in one place. */
export interface BaseRequest {
  /** Path parameter values as wire text. */
  params: Record<string, string>;
  body?: Json;
}

export interface FuzzTarget {
  /** A valid bearer token per security scheme name, and `widgetToken` (a scoped token for a browser origin). */
  tokens: Record<string, string>;
  /** Per security scheme, a token the server signed for an organization or workspace it has no record of (deleted since, say). */
  dangling: Record<string, string>;
  widgetOrigin: string;
  bodyLimitBytes: number;
}

export interface FuzzRequest extends RawRequest {
  /** What was changed from the base request, for the report. */
  mutation: string;
}

/**
 * One way to make a request wrong. Every run tries each variant an operation has (the random
 * choices are made within it), so a kind of input that breaks the server can't go untried by chance.
 */
type Variant =
  | { family: 'none' }
  | { family: 'path'; kind: string }
  | { family: 'query' }
  | { family: 'body'; kind: 'hostile string' | 'hostile strings'; category: string }
  /** `property`: a top-level property of the body schema; without it, anywhere in the body. */
  | { family: 'body'; kind: 'wrong type' | 'missing field'; property?: string }
  | { family: 'body'; kind: 'extra field' | 'deep nesting' | 'huge string' }
  | { family: 'content'; kind: 'content type' | 'malformed' | 'empty' | 'oversized' | 'encoding' }
  | { family: 'auth'; kind: 'none' | 'forged' | 'wrong kind' | 'dangling' | 'widget origin' | 'other headers' }
  | { family: 'method' };

export function variantsFor(operation: Operation): Variant[] {
  const categories = Object.keys(HOSTILE_STRINGS);
  const schema = operation.bodySchema ?? {};
  const properties = Object.keys((schema.properties ?? {}) as object);
  const required = (schema.required ?? []) as string[];
  return [
    { family: 'none' },
    ...(operation.pathParams.length > 0 ? Object.keys(HOSTILE_SEGMENTS).map((kind) => ({ family: 'path' as const, kind })) : []),
    { family: 'query' },
    ...(operation.bodySchema
      ? [
          ...categories.flatMap((category) => (['hostile string', 'hostile strings'] as const).map((kind) => ({ family: 'body' as const, kind, category }))),
          ...[undefined, ...properties].map((property) => ({ family: 'body' as const, kind: 'wrong type' as const, property })),
          ...[undefined, ...required].map((property) => ({ family: 'body' as const, kind: 'missing field' as const, property })),
          ...(['extra field', 'deep nesting', 'huge string'] as const).map((kind) => ({ family: 'body' as const, kind })),
        ]
      : []),
    ...(['content type', 'malformed', 'empty', 'oversized', 'encoding'] as const).map((kind) => ({ family: 'content' as const, kind })),
    ...(['none', 'forged', 'wrong kind', 'dangling', 'widget origin', 'other headers'] as const).map((kind) => ({ family: 'auth' as const, kind })),
    { family: 'method' },
  ];
}

/** A request for `operation`: `base` made wrong as `variant` says, the details chosen by `random`. */
export function fuzzRequest(operation: Operation, base: BaseRequest, variant: Variant, target: FuzzTarget, random: SeededRandom): FuzzRequest {
  const token = operation.auth.length > 0 ? target.tokens[random.pick(operation.auth)] : undefined;
  const request: FuzzRequest = {
    method: operation.method.toUpperCase(),
    path: fillPath(operation.path, base.params),
    headers: token ? bearer(token) : {},
    mutation: 'none (the base request as is)',
  };
  if (base.body !== undefined) setBody(request, JSON.stringify(base.body));
  switch (variant.family) {
    case 'none':
      return request;
    case 'path': {
      const name = random.pick(operation.pathParams);
      const value = random.pick(HOSTILE_SEGMENTS[variant.kind]!);
      return { ...request, path: fillPath(operation.path, { ...base.params, [name]: value }), mutation: `path param ${name} = ${value.slice(0, 60)}` };
    }
    case 'query':
      return mutateQuery(request, random);
    case 'body':
      return mutateBody(request, base.body ?? {}, variant, target, random);
    case 'content':
      return mutateContent(request, variant.kind, target, random);
    case 'auth':
      return mutateAuth(request, variant.kind, operation, target, random);
    case 'method':
      return {
        ...request,
        method: random.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'].filter((m) => m !== request.method)),
        mutation: 'another method',
      };
  }
}

function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => params[name] ?? 'x');
}

function setBody(request: FuzzRequest, text: string | Buffer, contentType: string | undefined = 'application/json'): void {
  request.body = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const { 'content-type': _dropped, ...headers } = request.headers;
  request.headers = contentType === undefined ? headers : { ...headers, 'content-type': contentType };
}

function mutateQuery(request: FuzzRequest, random: SeededRandom): FuzzRequest {
  const keys = ['external_user_id', 'connector_type', 'limit', 'cursor', '__proto__', 'a[b]', urlValue(random.pick(HOSTILE_KEYS))];
  const pairs = Array.from({ length: random.int(1, 3) }, () => `${random.pick(keys)}=${hostileSegment(random)}`);
  if (random.chance(0.2)) pairs.push('a=1', 'a=2', '&&=');
  const query = pairs.join('&');
  return { ...request, path: `${request.path}?${query}`, mutation: `query ${query.slice(0, 200)}` };
}

/** Where a value sits in a JSON document: the keys from the root. */
type Location = Array<string | number>;

function mutateBody(request: FuzzRequest, body: Json, variant: Extract<Variant, { family: 'body' }>, target: FuzzTarget, random: SeededRandom): FuzzRequest {
  const locations = locationsIn(body);
  const strings = locations.filter((l) => typeof valueAt(body, l) === 'string');
  const objects = locations.filter((l) => isObject(valueAt(body, l)));
  const show = (at: Location) => (at.length === 0 ? 'the body' : at.join('.'));
  const done = (text: string, mutation: string) => {
    setBody(request, text);
    return { ...request, mutation };
  };
  switch (variant.kind) {
    case 'hostile string': {
      const at = random.pick(strings.length > 0 ? strings : locations);
      const value = random.pick(HOSTILE_STRINGS[variant.category]!);
      return done(JSON.stringify(replaceAt(body, at, value)), `${show(at)} = ${JSON.stringify(value).slice(0, 60)}`);
    }
    case 'hostile strings': {
      // Every string under one nested object (an execute's params, a connector's credentials): whichever reaches deepest is in.
      const nested = objects.filter((l) => l.length > 0);
      const under = random.pick(nested.length > 0 ? nested : [[]]);
      const value = random.pick(HOSTILE_STRINGS[variant.category]!);
      const changed = strings
        .filter((l) => l.length > under.length && under.every((key, i) => l[i] === key))
        .reduce((current, at) => replaceAt(current, at, value), body);
      return done(JSON.stringify(changed), `every string under ${show(under)} = ${JSON.stringify(value).slice(0, 60)}`);
    }
    case 'wrong type': {
      const at = variant.property === undefined ? random.pick(locations) : [variant.property];
      const value = random.pick(WRONG_TYPES);
      return done(JSON.stringify(replaceAt(body, at, value)), `${show(at)} = ${JSON.stringify(value)} (wrong type)`);
    }
    case 'missing field': {
      const filled = objects.filter((l) => Object.keys(valueAt(body, l) as object).length > 0);
      if (filled.length === 0) return request;
      const parent = variant.property === undefined ? random.pick(filled) : [];
      const key = variant.property ?? random.pick(Object.keys(valueAt(body, parent) as object));
      return done(JSON.stringify(replaceAt(body, parent, omit(valueAt(body, parent) as Record<string, Json>, key))), `missing ${show([...parent, key])}`);
    }
    case 'extra field': {
      const parent = objects.length > 0 ? random.pick(objects) : [];
      const key = random.pick(HOSTILE_KEYS);
      const value = random.pick([...WRONG_TYPES, ...Object.values(HOSTILE_STRINGS).flat()]);
      // Written into the text: an object literal would take `__proto__` as its prototype, not as a key.
      const text = JSON.stringify(replaceAt(body, parent, PLACEHOLDER)).replace(JSON.stringify(PLACEHOLDER), () =>
        objectText(valueAt(body, parent), key, value),
      );
      return done(text, `extra field ${JSON.stringify(key).slice(0, 40)} in ${show(parent)}`);
    }
    case 'deep nesting': {
      const at = random.pick(locations);
      const depth = random.int(100, Math.floor(target.bodyLimitBytes / 8));
      return done(
        JSON.stringify(replaceAt(body, at, PLACEHOLDER)).replace(JSON.stringify(PLACEHOLDER), () => deeplyNested(depth, random)),
        `${show(at)} nested ${depth} deep`,
      );
    }
    case 'huge string': {
      const at = random.pick(locations);
      const length = random.int(1_000, target.bodyLimitBytes - 1_000);
      return done(JSON.stringify(replaceAt(body, at, 'x'.repeat(length))), `${show(at)} = a string of ${length} characters`);
    }
  }
}

/** Stands in for a value that is written into the JSON text afterwards; JSON.stringify leaves it as is. */
const PLACEHOLDER = 'fuzz-placeholder-5f0c2e';

function objectText(value: Json, key: string, extra: Json): string {
  const entries = isObject(value) ? Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`) : [];
  return `{${[...entries, `${JSON.stringify(key)}:${JSON.stringify(extra)}`].join(',')}}`;
}

function mutateContent(request: FuzzRequest, kind: Extract<Variant, { family: 'content' }>['kind'], target: FuzzTarget, random: SeededRandom): FuzzRequest {
  const text = request.body?.toString() ?? '{}';
  switch (kind) {
    case 'content type': {
      const type = random.pick([
        undefined,
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json; charset=latin1',
        'application/json; charset=utf-16le',
        'application/json; charset=nope',
        'application/merge-patch+json',
        'application/json, text/plain',
      ]);
      setBody(request, text, type);
      return { ...request, mutation: `content-type ${type ?? '(none)'}` };
    }
    case 'malformed': {
      const lastBrace = text.lastIndexOf('}');
      const malformed = random.pick<string | Buffer>([
        '{',
        '{"a":}',
        '[1,]',
        "{'a':1}",
        '\ufeff{}',
        'nul',
        '{"a":1}{"b":2}',
        '"\\ud800"',
        lastBrace > 0 ? `${text.slice(0, lastBrace)},}` : '{,}',
        Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
        '{"a":"\u0001\u0002"}',
      ]);
      setBody(request, malformed);
      return { ...request, mutation: `malformed JSON ${JSON.stringify(malformed.toString()).slice(0, 60)}` };
    }
    case 'empty':
      setBody(request, '', random.chance(0.5) ? 'application/json' : undefined);
      return { ...request, mutation: 'empty body' };
    case 'oversized':
      setBody(request, `{"a":"${'x'.repeat(target.bodyLimitBytes)}"}`);
      return { ...request, mutation: `a body over the ${target.bodyLimitBytes}-byte limit` };
    case 'encoding': {
      const encoding = random.pick(['gzip', 'deflate', 'br', 'compress', 'identity, gzip']);
      setBody(request, text);
      return { ...request, headers: { ...request.headers, 'content-encoding': encoding }, mutation: `content-encoding ${encoding} on a plain body` };
    }
  }
}

function mutateAuth(
  request: FuzzRequest,
  kind: Extract<Variant, { family: 'auth' }>['kind'],
  operation: Operation,
  target: FuzzTarget,
  random: SeededRandom,
): FuzzRequest {
  const { authorization: _dropped, ...headers } = request.headers;
  switch (kind) {
    case 'none':
      return { ...request, headers, mutation: 'no Authorization' };
    case 'forged': {
      const authorization = forgedAuthorization(random, random.pick(Object.values(target.tokens)));
      return { ...request, headers: { ...headers, authorization }, mutation: 'a forged Authorization' };
    }
    case 'wrong kind': {
      const others = Object.keys(target.tokens).filter((scheme) => !operation.auth.includes(scheme));
      const scheme = random.pick(others.length > 0 ? others : Object.keys(target.tokens));
      return { ...request, headers: { ...headers, ...bearer(target.tokens[scheme]!) }, mutation: `a ${scheme} instead` };
    }
    case 'dangling': {
      const accepted = operation.auth.filter((scheme) => target.dangling[scheme] !== undefined);
      const scheme = random.pick(accepted.length > 0 ? accepted : Object.keys(target.dangling));
      return {
        ...request,
        headers: { ...headers, ...bearer(target.dangling[scheme]!) },
        mutation: `a signed ${scheme} naming an organization or workspace that does not exist`,
      };
    }
    case 'widget origin': {
      const origin = random.pick([
        target.widgetOrigin,
        'https://evil.example',
        'null',
        `${target.widgetOrigin}.evil.example`,
        urlValue(random.pick(Object.values(HOSTILE_STRINGS).flat())),
      ]);
      return {
        ...request,
        headers: { ...headers, ...bearer(target.tokens.widgetToken!), origin },
        mutation: `the widget token from Origin ${origin.slice(0, 60)}`,
      };
    }
    case 'other headers': {
      const extra = random.pick([
        { accept: 'text/html' },
        { 'x-forwarded-for': '::1, garbage' },
        { cookie: 'a=b; __proto__=x' },
        { 'access-control-request-method': 'DELETE', origin: target.widgetOrigin },
        { 'accept-encoding': 'gzip;q=x' },
        { host: 'evil.example' },
      ]);
      return { ...request, headers: { ...request.headers, ...extra }, mutation: `extra headers ${JSON.stringify(extra)}` };
    }
  }
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every location in `value`, the root included. */
function locationsIn(value: Json, at: Location = []): Location[] {
  const children = Array.isArray(value) ? value.map((child, index) => [index, child] as const) : isObject(value) ? Object.entries(value) : [];
  return [at, ...children.flatMap(([key, child]) => locationsIn(child, [...at, key]))];
}

function valueAt(value: Json, at: Location): Json {
  return at.reduce<Json>((current, key) => (current as Record<string | number, Json>)[key]!, value);
}

/** A copy of `value` with the value at `at` replaced. */
function replaceAt(value: Json, at: Location, replacement: Json): Json {
  if (at.length === 0) return replacement;
  const [key, ...rest] = at;
  if (Array.isArray(value)) return value.map((child, index) => (index === key ? replaceAt(child, rest, replacement) : child));
  return { ...(value as Record<string, Json>), [key!]: replaceAt((value as Record<string, Json>)[key!]!, rest, replacement) };
}

function omit(value: Record<string, Json>, key: string): Json {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

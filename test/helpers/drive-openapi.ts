/**
 * Conformance checks against Google's Drive v3 contract: the Discovery document converted to
 * OpenAPI 3 (drive-v3-openapi3.from-discovery.prefixed.json, paths under /drive/v3). Responses are
 * validated with ajv against the spec's own components.schemas; requests against the parameters
 * the spec declares for the operation (its own and the global ones: fields, alt, prettyPrint...).
 * Without the spec (see shared-specs.ts) every check answers [] and `driveConformance` is false, so a
 * suite can skip what expects a finding.
 *
 * The spec is used as published, with these adjustments (none relaxes a success schema):
 *  1. `#/components/schemas/...` refs point into one registered copy of components.schemas.
 *  2. Google's JSON encodes int64 as a decimal string; the spec writes such fields as
 *     `{type: string, format: int64}`. ajv-formats' int64 only checks numbers, so string int64
 *     fields get a "google-int64" format that requires a decimal integer string (a tightening).
 *     `google-datetime` (Discovery's name for RFC 3339) is checked as date-time.
 *  3. The spec models no error bodies. Non-2xx responses are checked against Drive's documented
 *     error envelope (ERROR_SCHEMA below: {"error": {"code", "message", "errors": [{"domain",
 *     "reason", "message", "location"?, "locationType"?}], "status"?}}), with `code` equal to the
 *     HTTP status.
 *  4. Requests: the spec does not model the Range header, which Drive honours on media downloads
 *     (206 with Content-Range), so a Range header is accepted on media requests (alt=media,
 *     files.export) and reported anywhere else.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import type { DriveRequestLogEntry } from '../../connectors/file-storage/sandbox/index.ts';
import { DRIVE_SPEC, loadSharedSpec } from './shared-specs.ts';

// ajv-formats is CommonJS; under NodeNext its default import is the plugin at run time but typed as the module.
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as unknown as (ajv: Ajv) => Ajv;

const COMPONENTS_ID = 'https://drive.example/openapi/components.json';

type JsonObject = Record<string, unknown>;

interface ParameterSchema {
  type?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: ParameterSchema;
}

type ParameterOrRef = Parameter | { $ref: string };

interface Operation {
  operationId?: string;
  parameters?: ParameterOrRef[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

type PathItem = Partial<Record<'get' | 'post' | 'patch' | 'put' | 'delete', Operation>> & { parameters?: ParameterOrRef[] };

interface OpenApiSpec {
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, unknown>; parameters: Record<string, Parameter> };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const found = loadSharedSpec<OpenApiSpec>(DRIVE_SPEC);
const spec: OpenApiSpec = found ?? { paths: {}, components: { schemas: {}, parameters: {} } };

/** Whether the spec was found and the checks below mean something. */
export const driveConformance = found !== undefined;

/** Deep clone applying adjustments 1 and 2. */
function adapt(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(adapt);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/')) out[key] = COMPONENTS_ID + value;
    else out[key] = adapt(value);
  }
  if (out.type === 'string' && out.format === 'int64') out.format = 'google-int64';
  if (out.format === 'google-datetime') out.format = 'date-time';
  return out;
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('google-int64', { type: 'string', validate: (s: string) => /^-?\d{1,19}$/.test(s) });
ajv.addSchema({ $id: COMPONENTS_ID, components: { schemas: adapt(spec.components.schemas) } });

/** Adjustment 3: the error envelope Drive answers every failure with. */
const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'errors'],
      additionalProperties: false,
      properties: {
        code: { type: 'integer' },
        message: { type: 'string', minLength: 1 },
        status: { type: 'string', pattern: '^[A-Z_]+$' },
        errors: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['domain', 'reason', 'message'],
            additionalProperties: false,
            properties: {
              domain: { type: 'string', minLength: 1 },
              reason: { type: 'string', pattern: '^[a-zA-Z]+$' },
              message: { type: 'string', minLength: 1 },
              location: { type: 'string', minLength: 1 },
              locationType: { enum: ['parameter', 'header'] },
            },
          },
        },
      },
    },
  },
};
const validateError = ajv.compile(ERROR_SCHEMA);

const validators = new Map<string, ValidateFunction>();

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`);
}

/**
 * Problems of a JSON response body of `method pathTemplate` (e.g. '/drive/v3/files/{fileId}')
 * answered with `status`: the spec's schema for a 2xx, Drive's error envelope otherwise. An empty
 * list means the body conforms.
 */
export function validateDriveResponse(pathTemplate: string, method: 'get', status: number, body: unknown): string[] {
  if (!driveConformance) return [];
  const op = spec.paths[pathTemplate]?.[method];
  if (!op) return [`${method.toUpperCase()} ${pathTemplate} is not an operation of the Drive spec`];
  if (status < 200 || status >= 300) {
    const problems = validateError(body) ? [] : describe(validateError.errors);
    if (isObject(body) && isObject(body.error) && body.error.code !== status)
      problems.push(`error.code ${String(body.error.code)} differs from HTTP status ${status}`);
    return problems;
  }
  const key = `${method} ${pathTemplate} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const response = op.responses[String(status)] ?? op.responses['200'];
    const schema = response?.content?.['application/json']?.schema;
    if (!isObject(schema)) return [`the spec has no JSON schema for ${method.toUpperCase()} ${pathTemplate} ${status}`];
    validate = ajv.compile(adapt(schema) as JsonObject);
    validators.set(key, validate);
  }
  return validate(body) ? [] : describe(validate.errors);
}

function resolveParameter(p: ParameterOrRef): Parameter {
  if ('$ref' in p) {
    const name = p.$ref.replace('#/components/parameters/', '');
    const found = spec.components.parameters[name];
    if (!found) throw new Error(`unresolvable parameter ref ${p.$ref}`);
    return found;
  }
  return p;
}

interface Template {
  path: string;
  pattern: RegExp;
  literalChars: number;
}

const TEMPLATES: Template[] = Object.keys(spec.paths).map((path) => ({
  path,
  pattern: new RegExp(
    `^${path
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  ),
  literalChars: path.replace(/\{[^}]+\}/g, '').length,
}));

/** The spec's path template for a concrete path (literal segments win: /files/trash is not /files/{fileId}). */
export function driveTemplateOf(path: string): string | undefined {
  let best: Template | undefined;
  for (const t of TEMPLATES) if (t.pattern.test(path) && (!best || t.literalChars > best.literalChars)) best = t;
  return best?.path;
}

function typeProblem(p: Parameter, value: string): string | undefined {
  const schema = p.schema ?? {};
  const type = schema.type ?? 'string';
  if (schema.enum && !schema.enum.includes(value)) return `parameter "${p.name}" must be one of ${schema.enum.join(', ')}, got ${JSON.stringify(value)}`;
  if (type === 'boolean' && value !== 'true' && value !== 'false') return `parameter "${p.name}" must be true or false, got ${JSON.stringify(value)}`;
  if (type === 'integer') {
    if (!/^-?\d+$/.test(value)) return `parameter "${p.name}" must be an integer, got ${JSON.stringify(value)}`;
    const n = Number(value);
    if (schema.minimum !== undefined && n < schema.minimum) return `parameter "${p.name}" must be >= ${schema.minimum}, got ${n}`;
    if (schema.maximum !== undefined && n > schema.maximum) return `parameter "${p.name}" must be <= ${schema.maximum}, got ${n}`;
  }
  return undefined;
}

/**
 * Problems of a request the sandbox received: its path must be an operation of the spec for that
 * HTTP method; every query parameter must be declared for the operation (own or global) with a
 * value of the declared type, enum and range; required ones must be present; a Range header only
 * on media requests (adjustment 4).
 */
export function validateDriveRequest(entry: DriveRequestLogEntry): string[] {
  if (!driveConformance) return [];
  const template = driveTemplateOf(entry.path);
  if (!template) return [`${entry.path} is not a path of the Drive spec`];
  const item = spec.paths[template] as PathItem;
  const verb = entry.httpMethod.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
  const op = item[verb];
  if (!op) return [`${entry.httpMethod} is not declared for ${template}`];
  const declared = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(resolveParameter);
  const query = new Map(declared.filter((p) => p.in === 'query').map((p) => [p.name, p]));
  const problems: string[] = [];
  for (const [name, value] of Object.entries(entry.query)) {
    const param = query.get(name);
    if (!param) {
      problems.push(`query parameter "${name}" is not declared for ${op.operationId ?? template}`);
      continue;
    }
    const problem = typeProblem(param, value);
    if (problem) problems.push(problem);
  }
  for (const param of query.values()) {
    if (param.required && !Object.hasOwn(entry.query, param.name)) problems.push(`required query parameter "${param.name}" is missing`);
  }
  const media = entry.query.alt === 'media' || template.endsWith('/export');
  if (entry.range !== null && !media) problems.push(`Range header sent to ${op.operationId ?? template}, which is not a media download`);
  return problems;
}

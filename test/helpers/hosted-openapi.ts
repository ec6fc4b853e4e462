/**
 * Checks answers of the hosted server against its own /openapi.json: the document must declare the
 * status an operation answered, and the body must match the schema it declares for that status (a
 * JSON body its `application/json` schema, bytes a media type of their own, no content no body).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { AfterResponseHook } from 'got';

/** One answer as a client saw it. */
export interface Answer {
  method: string;
  /** The URL's path, without the query. */
  path: string;
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

interface DeclaredResponse {
  content?: Record<string, { schema?: Record<string, unknown> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, { tags?: string[]; responses: Record<string, DeclaredResponse> }>>;
  components: Record<string, unknown>;
}

interface Operation {
  key: string;
  tags: string[];
  method: string;
  pattern: RegExp;
  responses: Record<string, DeclaredResponse>;
}

export class HostedConformance {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, formats: fullFormats });
  private readonly operations: Operation[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(doc: OpenApiDocument) {
    // Loose on keywords: the document carries OpenAPI's own besides JSON Schema's (description, x-error-message ...).
    this.ajv.addSchema(doc, 'openapi.json');
    this.operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, { responses, tags }]) => ({
        key: `${method.toUpperCase()} ${path}`,
        tags: tags ?? [],
        method: method.toUpperCase(),
        pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`),
        responses,
      })),
    );
  }

  /** `METHOD /path/{param}` of every operation the document declares (`tagged`: only those with that tag, `untagged`: none with it). */
  operationKeys(filter: { tagged?: string; untagged?: string } = {}): string[] {
    return this.operations
      .filter(({ tags }) => (filter.tagged === undefined || tags.includes(filter.tagged)) && (filter.untagged === undefined || !tags.includes(filter.untagged)))
      .map((operation) => operation.key);
  }

  /** The operation an answer came from, when the document declares one for its method and path. */
  operationOf(answer: Answer): string | undefined {
    return this.find(answer)?.key;
  }

  /** What is wrong with an answer by the document, or undefined (also for a request no operation takes). */
  problemWith(answer: Answer): string | undefined {
    const operation = this.find(answer);
    if (!operation) return undefined;
    const where = `${operation.key} answered ${answer.status}`;
    const declared = operation.responses[String(answer.status)];
    if (!declared) return `${where}, a status the document does not declare`;
    const content = declared.content ?? {};
    if (answer.body.length === 0 || answer.method === 'HEAD') return undefined;
    // JSON bodies: application/json, or a JSON-based type (application/problem+json), each checked against its own declaration.
    const mediaType = answer.contentType?.split(';')[0]?.trim() ?? '';
    if (mediaType !== 'application/json' && !mediaType.endsWith('+json')) {
      return Object.keys(content).some((type) => !type.endsWith('json')) ? undefined : `${where} with ${answer.contentType}, which it does not declare`;
    }
    const schema = content[mediaType]?.schema;
    if (!schema) return `${where} with a JSON body, which it does not declare`;
    const validate = this.validatorFor(schema);
    return validate(JSON.parse(answer.body.toString())) ? undefined : `${where} with a body off its schema: ${this.ajv.errorsText(validate.errors)}`;
  }

  private find(answer: Answer): Operation | undefined {
    return this.operations.find((operation) => operation.method === answer.method && operation.pattern.test(answer.path));
  }

  /** The document's schemas refer to its components (`#/components/schemas/...`), so they are compiled within it. */
  private validatorFor(schema: Record<string, unknown>): ValidateFunction {
    const ref = typeof schema.$ref === 'string' ? schema.$ref : undefined;
    if (!ref) throw new Error(`expected a $ref to a component, got ${JSON.stringify(schema).slice(0, 200)}`);
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi.json${ref}` });
      this.validators.set(ref, validate);
    }
    return validate;
  }
}

/** A got afterResponse hook that keeps every answer in `answers`, for a conformance check at the end. */
export function recordAnswer(answers: Answer[]): AfterResponseHook {
  return (response) => {
    answers.push({
      method: response.request.options.method,
      path: response.url ? new URL(response.url).pathname : '',
      status: response.statusCode,
      contentType: response.headers['content-type'],
      body: response.rawBody,
    });
    return response;
  };
}

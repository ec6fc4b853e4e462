import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { AIRBYTE_PUBLIC_SPEC, AIRBYTE_TOKEN_SPEC, loadSharedSpec, type SharedSpec } from './shared-specs.ts';
import { recordSkippedValidation } from './skipped-validations.ts';

/** The config API (its paths start with /v1/, apart from the public API's): its connection checks. */
export const AIRBYTE_CONFIG_SPEC: SharedSpec = { label: 'Config API', file: 'airbyte/config.yaml', envVar: 'AIRBYTE_CONFIG_API_SPEC' };

/**
 * Airbyte's official public API description (OpenAPI 3.1, JSON Schema 2020-12), and its config API's, for checking what
 * Plugboard's public cloud API takes and answers: a request body against the operation's request
 * schema, an answer against its declared status and schema.
 */

type Operation = {
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, Response>;
};
/** A response, or (the config API's errors) a `$ref` to a shared one under components/responses. */
type Response = { content?: Record<string, { schema: unknown }>; $ref?: string };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>>; responses?: Record<string, Response> };
};

export class PublicApiSpec {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly validators = new Map<string, ValidateFunction>();

  private constructor(
    private readonly documents: Array<{ id: string; doc: Document }>,
    /** False when the spec is not on this machine: every check then passes, counted as skipped. */
    readonly available = true,
  ) {
    addFormats.default(this.ajv);
    // The document also spells the uuid format "UUID".
    this.ajv.addFormat('UUID', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    for (const { id, doc } of documents) {
      // Two source schemas do not compile as published (a repeated `required` entry, a `\\-` in a unicode pattern): mended, since SourceConfiguration refers to both.
      const schemas = doc.components.schemas;
      const hellobaton = schemas['source-hellobaton'];
      if (hellobaton && Array.isArray(hellobaton.required)) hellobaton.required = [...new Set(hellobaton.required as string[])];
      const guardian = schemas['source-the-guardian-api']?.properties as Record<string, { pattern?: string }> | undefined;
      for (const property of Object.values(guardian ?? {})) if (property.pattern) property.pattern = property.pattern.replace(/\\-/g, '-');
      // The config API's AirbyteStream requires `json_schema` but names the property `jsonSchema` (and admits no other): no stream could conform.
      const stream = schemas.AirbyteStream;
      if (Array.isArray(stream?.required)) stream.required = (stream.required as string[]).map((name) => (name === 'json_schema' ? 'jsonSchema' : name));
      this.ajv.addSchema(doc, id);
    }
  }

  /**
   * The spec. When it is not on this machine the tests still run: only their validations against it
   * skip (each counted, and the run says so once).
   */
  static load(): PublicApiSpec {
    const sdk = loadSharedSpec<Document>(AIRBYTE_PUBLIC_SPEC);
    const token = loadSharedSpec<Document>(AIRBYTE_TOKEN_SPEC);
    const config = loadSharedSpec<Document>(AIRBYTE_CONFIG_SPEC);
    if (!sdk || !token || !config) return new PublicApiSpec([], false);
    return new PublicApiSpec([
      { id: 'api_sdk', doc: sdk },
      { id: 'api', doc: token },
      { id: 'config', doc: config },
    ]);
  }

  /** Every operation of the public API's description (api_sdk.yaml), `method /path` in the order of its paths (none when it is not on this machine). */
  sdkOperations(): string[] {
    if (!this.available) return this.skipped();
    const sdk = this.documents.find((document) => document.id === 'api_sdk')!.doc;
    return Object.entries(sdk.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((method) => HTTP_METHODS.has(method))
        .map((method) => `${method} ${path}`),
    );
  }

  /** Problems of a request body against the operation's schema, or [] when it conforms. */
  requestProblems(method: string, path: string, body: unknown): string[] {
    if (!this.available) return this.skipped();
    const { id, operation } = this.operation(method, path);
    const content = operation.requestBody?.content['application/json'];
    if (!content) throw new Error(`${method} ${path} takes no JSON body in the spec`);
    return this.check(`${id}#/paths/${pointer(path)}/${method}/requestBody/content/application~1json/schema`, body);
  }

  /** Problems of an answer against the operation: a status it declares, and a body on that status's schema. */
  responseProblems(method: string, path: string, status: number, body: unknown): string[] {
    if (!this.available) return this.skipped();
    const { id, operation } = this.operation(method, path);
    const declared = operation.responses[String(status)];
    if (!declared) return [`${method} ${path}: status ${status} is not declared (${Object.keys(operation.responses).join(', ')})`];
    const shared = declared.$ref?.replace(/^#\/components\/responses\//, '');
    const response = shared === undefined ? declared : this.documents.find((document) => document.id === id)!.doc.components.responses?.[shared];
    if (!response?.content?.['application/json']) return body === undefined ? [] : [`${method} ${path} ${status}: the spec declares no body`];
    // A JSON answer the spec gives no schema (initiateOAuth's): any JSON conforms.
    if (response.content['application/json'].schema === undefined) return [];
    const at = shared === undefined ? `paths/${pointer(path)}/${method}/responses/${status}` : `components/responses/${shared}`;
    return this.check(`${id}#/${at}/content/application~1json/schema`, body);
  }

  private skipped(): string[] {
    recordSkippedValidation(AIRBYTE_PUBLIC_SPEC.label);
    return [];
  }

  private operation(method: string, path: string): { id: string; operation: Operation } {
    for (const { id, doc } of this.documents) {
      const operation = doc.paths[path]?.[method];
      if (operation) return { id, operation };
    }
    throw new Error(`the spec has no ${method} ${path}`);
  }

  private check(ref: string, value: unknown): string[] {
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.validators.set(ref, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
  }
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** A path as a JSON Pointer token. */
function pointer(path: string): string {
  return path.replace(/~/g, '~0').replace(/\//g, '~1');
}

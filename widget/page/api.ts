import type {
  ConnectorList,
  EmbeddedOAuthInitiateResponse,
  EmbeddedSourceCreateRequest,
  ConnectorSpecification as GeneratedSpecification,
  TemplateList,
  ValidationIssue,
} from '../../core/hosted/types.generated.ts';
import type { SourceRecord } from '../protocol.ts';

export type { ValidationIssue };
export type Template = TemplateList['data'][number];
import type { TokenKeeper } from './token-keeper.ts';

/** An error answer: the server's `{detail, error_code}`, and its status. */
export interface ApiFailure {
  status: number;
  detail: string | ValidationIssue[];
  error_code: string;
  /** A refused duplicate (409 connector_exists): the source the end user already has. */
  connector_id?: string;
}

export type ApiAnswer<T> = { ok: true; data: T } | { ok: false; failure: ApiFailure };

/** A JSON Schema as the forms read it: the few keywords they use. */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** What the server says of a value its `pattern` refuses. */
  'x-error-message'?: string;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  oneOf?: JsonSchema[];
}

/** A connector type's form schemas (the generated type keeps them as plain objects). */
export interface ConnectorSpecification extends Omit<GeneratedSpecification, 'credentials' | 'replication_config'> {
  credentials: JsonSchema;
  replication_config: JsonSchema | null;
}

export type SourceInput = Partial<EmbeddedSourceCreateRequest>;

/** The embedded API, called from the widget page (same origin as the server) with the widget's token. */
export class EmbeddedApi {
  constructor(private readonly tokens: TokenKeeper) {}

  templates = () => this.call<TemplateList>('GET', 'api/v1/embedded/templates/sources');
  sources = () => this.call<ConnectorList>('GET', 'api/v1/embedded/sources');
  connectorTypes = () => this.call<{ data: ConnectorSpecification[] }>('GET', 'api/v1/embedded/connector-types');
  createSource = (input: SourceInput) => this.call<SourceRecord>('POST', 'api/v1/embedded/sources', input);
  updateSource = (id: string, input: SourceInput) => this.call<SourceRecord>('PATCH', `api/v1/embedded/sources/${encodeURIComponent(id)}`, input);
  /** A consent for a source of the template: the provider's page to open, and its state. */
  initiateOAuth = (templateId: string) =>
    this.call<EmbeddedOAuthInitiateResponse>('POST', 'api/v1/embedded/oauth/initiate', { source_template_id: templateId });

  /** One call; a 401 (the token expired meanwhile) asks the host for a new token and tries once more. */
  private async call<T>(method: string, path: string, body?: unknown): Promise<ApiAnswer<T>> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.tokens.current();
      const response = await fetch(`/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        credentials: 'omit',
        cache: 'no-store',
      });
      const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      // A source whose grant is gone (credentials_expired) is no sign the widget's token expired.
      if (response.status === 401 && answer.error_code !== 'credentials_expired' && attempt === 0) {
        this.tokens.refused();
        continue;
      }
      if (response.ok) return { ok: true, data: answer as T };
      const detail = answer.detail;
      return {
        ok: false,
        failure: {
          status: response.status,
          detail: typeof detail === 'string' || Array.isArray(detail) ? (detail as ApiFailure['detail']) : response.statusText,
          error_code: typeof answer.error_code === 'string' ? answer.error_code : response.status === 422 ? 'validation_error' : `http_${response.status}`,
          ...(typeof answer.connector_id === 'string' ? { connector_id: answer.connector_id } : {}),
        },
      };
    }
  }
}

/**
 * The CDK's HttpRequester: the URL (`url`, or `url_base` joined with `path`, or a path the paginator
 * gives), the method, and the request's query, headers and body from its own templated `request_*`
 * fields, the paginator's and slicers' options and the authenticator, sent through the read's retries
 * under the requester's error handler. Templates see `config`, `parameters`, `stream_slice` (and its
 * aliases `stream_partition`, `stream_interval`), `next_page_token` and the slice's extra fields.
 */
import { isObject } from '../json-values.ts';
import type { HttpRequester } from '../model.ts';
import { type Authenticator, authenticatorFor } from './auth/authenticator.ts';
import { type ErrorHandlerRuntime, errorHandlerRuntime } from './error-handler.ts';
import type { OutgoingRequest } from './http-client.ts';
import { ManifestReadError } from './read-errors.ts';
import { type ReadRuntime, sendCounted } from './read-runtime.ts';
import { emptyParts, mergeParts, pyText, type RequestParts } from './request-parts.ts';
import type { Answer } from './send-with-retries.ts';
import { type InterpolationContext, StreamSlice } from './templates.ts';

export interface RequestInput {
  slice: StreamSlice;
  /** `{next_page_token: token}`, or null before the first token (as the CDK passes it). */
  nextPageToken: Record<string, unknown> | null;
  /** A path (or URL) from the paginator's RequestPath, in place of the requester's own. */
  path?: string;
  /** What the paginator and the slicers inject. */
  options: Partial<RequestParts>[];
}

export const EMPTY_SLICE = new StreamSlice({});

export class Requester {
  private readonly errors: ErrorHandlerRuntime;
  private readonly authenticator: Authenticator;

  constructor(
    readonly component: HttpRequester,
    private readonly runtime: ReadRuntime,
  ) {
    this.errors = errorHandlerRuntime(component.error_handler, runtime.templates, runtime.config, runtime.clock);
    this.authenticator = authenticatorFor(component.authenticator, runtime, this.urlBaseForLogin());
  }

  /** The url_base a legacy session login goes to (one that needs a slice has none to give). */
  private urlBaseForLogin(): string {
    if (typeof this.component.url_base !== 'string') return '';
    try {
      return pyText(this.runtime.templates.string(this.component.url_base, { config: this.runtime.config, parameters: this.component.$parameters ?? {} }));
    } catch {
      return '';
    }
  }

  context(slice: StreamSlice, nextPageToken: Record<string, unknown> | null): InterpolationContext {
    return {
      ...slice.extra_fields,
      config: this.runtime.config,
      parameters: this.component.$parameters ?? {},
      stream_slice: slice,
      next_page_token: nextPageToken,
    };
  }

  async send(input: RequestInput): Promise<Answer> {
    const context = this.context(input.slice, input.nextPageToken);
    const url = this.url(context, input.path);
    const own = this.ownParts(context);
    return sendCounted(
      this.runtime,
      async () => {
        const parts = emptyParts();
        mergeParts(parts, own);
        for (const option of input.options) mergeParts(parts, option);
        const auth = await this.authenticator.parts();
        mergeParts(parts, auth);
        return this.outgoing(url, parts, Object.keys(auth.headers ?? {}));
      },
      this.errors,
      { refreshCredentials: () => this.authenticator.invalidate() },
    );
  }

  /** The CDK's join: a full URL stands alone; else the path (its leading `/` dropped) under the base (with a trailing `/`). */
  private url(context: InterpolationContext, pagePath: string | undefined): URL {
    const { templates } = this.runtime;
    const text = (template: string | undefined) => (template === undefined || template === null ? '' : pyText(templates.string(template, context)));
    const base = this.component.url !== undefined && this.component.url !== null ? text(this.component.url) : text(this.component.url_base);
    const path = pagePath ?? (this.component.url !== undefined && this.component.url !== null ? '' : text(this.component.path));
    try {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return new URL(path);
      if (path === '') return new URL(base);
      return new URL(path.replace(/^\/+/, ''), base.endsWith('/') ? base : `${base}/`);
    } catch {
      throw new ManifestReadError('The requester builds a URL that is not valid (check url_base, path and the config values they use)', 'manifest_invalid_url');
    }
  }

  private ownParts(context: InterpolationContext): RequestParts {
    const { templates } = this.runtime;
    const c = this.component;
    const parts = emptyParts();
    if (c.request_parameters) {
      const query = templates.requestInput('request_parameters', c.request_parameters, context);
      if (!isObject(query)) throw new ManifestReadError('request_parameters must give a mapping');
      for (const [name, value] of Object.entries(query)) {
        if (isObject(value)) throw new ManifestReadError(`The request parameter ${JSON.stringify(name)} cannot be an object`);
      }
      parts.query = query;
    }
    if (c.request_headers) {
      const headers = templates.requestInput('request_headers', c.request_headers, context);
      if (!isObject(headers)) throw new ManifestReadError('request_headers must give a mapping');
      parts.headers = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, pyText(value)]));
    }
    if (c.request_body_json) {
      const body = templates.requestInput('request_body_json', c.request_body_json as Record<string, unknown> | string, context);
      if (!isObject(body)) throw new ManifestReadError('request_body_json must give a mapping');
      parts.bodyJson = body;
    }
    if (c.request_body_data) {
      // A string is the raw body; a mapping a form.
      const data =
        typeof c.request_body_data === 'string'
          ? templates.string(c.request_body_data, context)
          : templates.requestInput('request_body_data', c.request_body_data, context);
      parts.bodyData = isObject(data) ? data : data === null || data === undefined ? {} : pyText(data);
    }
    return parts;
  }

  private outgoing(url: URL, parts: RequestParts, credentialHeaders: string[]): OutgoingRequest {
    const target = new URL(url);
    // Appended to a query the URL may already have (a next-page link), as requests does.
    for (const [name, value] of Object.entries(parts.query))
      for (const item of [value].flat()) if (item !== null && item !== undefined) target.searchParams.append(name, pyText(item));
    const hasJson = Object.keys(parts.bodyJson).length > 0;
    const hasData = typeof parts.bodyData === 'string' ? parts.bodyData !== '' : Object.keys(parts.bodyData).length > 0;
    if (hasJson && hasData) throw new ManifestReadError('A request cannot have both a JSON body and a form body');
    const request: OutgoingRequest = { url: target.toString(), method: this.component.http_method ?? 'GET', headers: parts.headers, credentialHeaders };
    if (hasJson) request.body = { kind: 'json', value: parts.bodyJson };
    else if (typeof parts.bodyData === 'string' && hasData) request.body = { kind: 'raw', value: parts.bodyData };
    else if (hasData) {
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries(parts.bodyData))
        for (const item of [value].flat()) if (item !== null && item !== undefined) form.append(name, pyText(item));
      request.body = { kind: 'form', value: form.toString() };
      if (!Object.keys(parts.headers).some((name) => name.toLowerCase() === 'content-type'))
        request.headers = { ...parts.headers, 'content-type': 'application/x-www-form-urlencoded' };
    }
    return request;
  }
}

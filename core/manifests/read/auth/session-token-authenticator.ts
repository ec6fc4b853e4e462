/**
 * Session tokens: a login request answers a token that later requests carry. The CDK's
 * SessionTokenAuthenticator logs in with its own full requester (`login_requester`: URL, method, body,
 * authenticator, error handler), reads the token at `session_token_path` and keeps it for
 * `expiration_duration` (without one, it logs in before every request). The legacy form posts
 * `{username, password}` to `login_url` under the requester's url_base, after trying a configured
 * `session_token` against `validate_session_url`.
 */
import { nowOf, parseDuration, shift } from '../datetimes.ts';
import { getPath } from '../dpath.ts';
import { errorHandlerRuntime } from '../error-handler.ts';
import { decodeJsonOrEmpty } from '../json-decoder.ts';
import type { LegacySessionTokenAuthenticator as LegacyComponent, SessionTokenAuthenticator as SessionComponent } from '../../model.ts';
import { UpstreamError } from '../../../errors.ts';
import { ManifestReadError } from '../read-errors.ts';
import { type ReadRuntime, sendCounted } from '../read-runtime.ts';
import { injectOption, pyText, type RequestParts } from '../request-parts.ts';
import { EMPTY_SLICE, Requester } from '../requester.ts';
import type { Authenticator } from './authenticator.ts';

export class SessionTokenAuthenticator implements Authenticator {
  private token: string | undefined;
  private expiresAt = Number.NEGATIVE_INFINITY;
  private login: Promise<void> | undefined;
  private readonly lifetime: ReturnType<typeof parseDuration> | undefined;

  constructor(
    private readonly component: SessionComponent,
    private readonly runtime: ReadRuntime,
  ) {
    const duration = component.expiration_duration;
    this.lifetime = duration
      ? parseDuration(pyText(runtime.templates.string(duration, { config: runtime.config, parameters: component.$parameters ?? {} })))
      : undefined;
  }

  async parts(): Promise<Partial<RequestParts>> {
    if (this.token === undefined || this.lifetime === undefined || this.runtime.clock() >= this.expiresAt) {
      this.login ??= this.logIn().finally(() => {
        this.login = undefined;
      });
      await this.login;
    }
    const token = this.token!;
    const authentication = this.component.request_authentication;
    if (authentication.type === 'SessionTokenRequestBearerAuthenticator') return { headers: { Authorization: `Bearer ${token}` } };
    const value = this.runtime.templates.string(authentication.api_token ?? '{{ session_token }}', {
      config: this.runtime.config,
      parameters: authentication.$parameters ?? {},
      session_token: token,
    });
    return injectOption(authentication.inject_into, pyText(value), this.runtime.templates, this.runtime.config);
  }

  invalidate(): void {
    this.expiresAt = Number.NEGATIVE_INFINITY;
  }

  private async logIn(): Promise<void> {
    const answer = await new Requester(this.component.login_requester, this.runtime).send({ slice: EMPTY_SLICE, nextPageToken: null, options: [] });
    const body = decodeJsonOrEmpty(answer.response.body);
    const token = getPath(body, this.component.session_token_path);
    if (answer.ignored || token === undefined || token === null || token === '') {
      throw new UpstreamError(`The login answered no session token at ${this.component.session_token_path.join('.')}`, 'upstream_no_session_token');
    }
    this.token = pyText(token);
    if (this.lifetime) this.expiresAt = shift(nowOf(this.runtime.clock), this.lifetime).timestamp() * 1000;
  }
}

export class LegacySessionTokenAuthenticator implements Authenticator {
  private token: string | undefined;

  constructor(
    private readonly component: LegacyComponent,
    private readonly runtime: ReadRuntime,
    private readonly urlBase: string,
  ) {}

  async parts(): Promise<Partial<RequestParts>> {
    this.token ??= await this.obtain();
    return { headers: { [this.text(this.component.header) ?? 'X-Session']: this.token } };
  }

  invalidate(): void {
    this.token = undefined;
  }

  private text(template: string | undefined): string | undefined {
    if (template === undefined || template === null) return undefined;
    const value = this.runtime.templates.string(template, { config: this.runtime.config, parameters: this.component.$parameters ?? {} });
    return value === null || value === '' ? undefined : pyText(value);
  }

  private async obtain(): Promise<string> {
    const header = this.text(this.component.header) ?? 'X-Session';
    const given = this.text(this.component.session_token);
    const errors = errorHandlerRuntime(undefined, this.runtime.templates, this.runtime.config, this.runtime.clock);
    if (given) {
      const validation = await sendCounted(
        this.runtime,
        async () => ({
          url: `${this.urlBase}${this.text(this.component.validate_session_url) ?? ''}`,
          method: 'GET',
          headers: { [header]: given },
          credentialHeaders: [header],
        }),
        errors,
      ).catch(() => undefined);
      if (validation && !validation.ignored) return given;
    }
    const username = this.text(this.component.username);
    const password = this.text(this.component.password);
    if (!username || !password)
      throw new ManifestReadError('Invalid credentials: the session token is not valid, and no username and password are given', 'manifest_config_invalid');
    const login = await sendCounted(
      this.runtime,
      async () => ({
        url: `${this.urlBase}${this.text(this.component.login_url) ?? ''}`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: { kind: 'json', value: { username, password } },
        credentialHeaders: [],
      }),
      errors,
    );
    const key = this.text(this.component.session_token_response_key) ?? 'token';
    const token = getPath(decodeJsonOrEmpty(login.response.body), [key]);
    if (token === undefined || token === null || token === '') throw new UpstreamError('The login answered no session token', 'upstream_no_session_token');
    return pyText(token);
  }
}

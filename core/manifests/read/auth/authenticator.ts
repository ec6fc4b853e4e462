/**
 * Authenticators: what each adds to a request (a header, a query parameter, body fields), built once
 * per read and per distinct component, so a login or an access token serves every request of the read
 * that uses the same authenticator (a substream's parent included).
 */
import { BadRequestError } from '../../../errors.ts';
import type { Authenticator as AuthenticatorComponent } from '../../model.ts';
import { getPath } from '../dpath.ts';
import type { ReadRuntime } from '../read-runtime.ts';
import { pyText, type RequestParts } from '../request-parts.ts';
import { OAuthAuthenticator } from './oauth-authenticator.ts';
import { LegacySessionTokenAuthenticator, SessionTokenAuthenticator } from './session-token-authenticator.ts';
import { apiKeyAuthenticator, basicAuthenticator, bearerAuthenticator } from './static-authenticators.ts';

export interface Authenticator {
  /** What the next request carries, after renewing a token or a session that is about to expire. */
  parts(): Promise<Partial<RequestParts>>;
  /** Forget the token, so the next request renews it (an error handler's REFRESH_TOKEN_THEN_RETRY). */
  invalidate(): void;
}

export const NO_AUTH: Authenticator = { parts: async () => ({}), invalidate: () => {} };

/** The authenticator of a requester; `urlBase` is the requester's, which the legacy session authenticator logs in against. */
export function authenticatorFor(component: AuthenticatorComponent | undefined, runtime: ReadRuntime, urlBase: string): Authenticator {
  if (component === undefined || component === null) return NO_AUTH;
  const key = `${urlBase}\u0000${JSON.stringify(component)}`;
  const known = runtime.authenticators.get(key) as Authenticator | undefined;
  if (known) return known;
  const built = build(component, runtime, urlBase);
  runtime.authenticators.set(key, built);
  return built;
}

function build(component: AuthenticatorComponent, runtime: ReadRuntime, urlBase: string): Authenticator {
  switch (component.type) {
    case 'NoAuth':
      return NO_AUTH;
    case 'ApiKeyAuthenticator':
      return apiKeyAuthenticator(component, runtime);
    case 'BearerAuthenticator':
      return bearerAuthenticator(component, runtime);
    case 'BasicHttpAuthenticator':
      return basicAuthenticator(component, runtime);
    case 'OAuthAuthenticator':
      return new OAuthAuthenticator(component, runtime);
    case 'SessionTokenAuthenticator':
      return new SessionTokenAuthenticator(component, runtime);
    case 'LegacySessionTokenAuthenticator':
      return new LegacySessionTokenAuthenticator(component, runtime, urlBase);
    case 'SelectiveAuthenticator': {
      // The CDK's choice: str() of the config value at the path names the authenticator.
      const selected = getPath(runtime.config, component.authenticator_selection_path);
      const name = selected === undefined ? undefined : pyText(selected);
      if (name === undefined || !Object.hasOwn(component.authenticators, name)) {
        throw new BadRequestError(
          `The config value at ${component.authenticator_selection_path.join('.')} must name one of the authenticators (${Object.keys(component.authenticators).join(', ')})`,
          'manifest_config_invalid',
        );
      }
      return authenticatorFor(component.authenticators[name], runtime, urlBase);
    }
    default:
      throw new BadRequestError(`Authenticator ${(component as { type: string }).type} cannot run`, 'manifest_unsupported_component');
  }
}

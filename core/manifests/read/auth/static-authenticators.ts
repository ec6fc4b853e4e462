/** Authenticators whose credential is in the config: an API key, a bearer token, a user and password. */
import type { ApiKeyAuthenticator, BasicHttpAuthenticator, BearerAuthenticator } from '../../model.ts';
import { ManifestReadError } from '../read-errors.ts';
import type { ReadRuntime } from '../read-runtime.ts';
import { injectOption, pyText } from '../request-parts.ts';
import type { Authenticator } from './authenticator.ts';

function fixed(parts: () => ReturnType<Authenticator['parts']> extends Promise<infer P> ? P : never): Authenticator {
  return { parts: async () => parts(), invalidate: () => {} };
}

/** `api_token` (str() of its value) injected where `inject_into` says, or in the deprecated `header`. */
export function apiKeyAuthenticator(component: ApiKeyAuthenticator, runtime: ReadRuntime): Authenticator {
  const { templates } = runtime;
  const context = () => ({ config: runtime.config, parameters: component.$parameters ?? {} });
  if (component.inject_into && component.header) throw new ManifestReadError('ApiKeyAuthenticator takes inject_into or header, not both');
  const token = () => pyText(templates.string(component.api_token ?? '', context()));
  if (component.inject_into) return fixed(() => injectOption(component.inject_into!, token(), templates, runtime.config));
  if (!component.header) throw new ManifestReadError('ApiKeyAuthenticator needs inject_into (or header)');
  return fixed(() => ({ headers: { [pyText(templates.string(component.header!, context()))]: token() } }));
}

export function bearerAuthenticator(component: BearerAuthenticator, runtime: ReadRuntime): Authenticator {
  const context = () => ({ config: runtime.config, parameters: component.$parameters ?? {} });
  return fixed(() => ({ headers: { Authorization: `Bearer ${pyText(runtime.templates.string(component.api_token, context()))}` } }));
}

export function basicAuthenticator(component: BasicHttpAuthenticator, runtime: ReadRuntime): Authenticator {
  const context = () => ({ config: runtime.config, parameters: component.$parameters ?? {} });
  return fixed(() => {
    const username = pyText(runtime.templates.string(component.username, context()));
    const password = component.password === undefined || component.password === null ? '' : pyText(runtime.templates.string(component.password, context()));
    return { headers: { Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` } };
  });
}

import got from 'got';
import { CredentialsExpiredError, PlugboardError, UpstreamError } from '../errors.ts';
import { sharedEgressAgents } from '../security/egress/egress-agents.ts';
import type { EgressPolicy } from '../security/egress/egress-policy.ts';

/** A provider's token endpoint, as one OAuth client calls it. */
export interface TokenEndpoint {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Error codes meaning the grant is gone for good (`invalid_grant`; Slack's `invalid_refresh_token`). */
  revokedCodes: string[];
  /** The policy its connections obey when the URL came from a tenant or a deployment setting. */
  egress?: EgressPolicy;
}

/** What a token endpoint granted. `refreshToken` is the rotated one when the provider rotates them. */
export interface GrantedTokens {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms; undefined when the provider gave no lifetime. */
  expiresAt?: number;
  scope?: string;
}

const TOKEN_TIMEOUT_MS = 30_000;

/** The authorization-code grant: the code the consent page gave, for access (and usually refresh) tokens. */
export function exchangeCode(endpoint: TokenEndpoint, grant: { code: string; redirectUri: string; codeVerifier?: string }): Promise<GrantedTokens> {
  return requestTokens(endpoint, {
    grant_type: 'authorization_code',
    code: grant.code,
    redirect_uri: grant.redirectUri,
    ...(grant.codeVerifier ? { code_verifier: grant.codeVerifier } : {}),
  });
}

/** The refresh grant. Never retried: a rotated refresh token sent twice would revoke the grant. */
export function refreshTokens(endpoint: TokenEndpoint, refreshToken: string): Promise<GrantedTokens> {
  return requestTokens(endpoint, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

/**
 * One form POST to the token endpoint, the client's id and secret in the body (both Slack and Google
 * take them there). A failure is the provider's `error` code, whether it came with an error status
 * (Google) or in a 200 body with `ok: false` (Slack); its description never reaches a caller.
 */
async function requestTokens(endpoint: TokenEndpoint, form: Record<string, string>): Promise<GrantedTokens> {
  let response: { statusCode: number; body: string };
  try {
    response = await postForm(endpoint, { ...form, client_id: endpoint.clientId, client_secret: endpoint.clientSecret });
  } catch (error) {
    if (error instanceof PlugboardError) throw error;
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof PlugboardError) throw cause;
    throw new UpstreamError('The OAuth token endpoint could not be reached', 'oauth_token_endpoint_unreachable');
  }
  const body = parseBody(response.body);
  const code = typeof body?.error === 'string' ? body.error : undefined;
  const failed = response.statusCode < 200 || response.statusCode > 299 || code !== undefined || body?.ok === false;
  if (failed || typeof body?.access_token !== 'string' || body.access_token === '') {
    if (code !== undefined && endpoint.revokedCodes.includes(code)) throw new CredentialsExpiredError();
    throw new UpstreamError(
      code === undefined
        ? `The OAuth token endpoint answered ${response.statusCode} without tokens`
        : `The OAuth token endpoint refused the grant: ${PROVIDER_CODE.test(code) ? code : 'an unrecognised error'}`,
      'oauth_token_refused',
    );
  }
  const expiresIn = Number(body.expires_in);
  return {
    accessToken: body.access_token,
    ...(typeof body.refresh_token === 'string' && body.refresh_token !== '' ? { refreshToken: body.refresh_token } : {}),
    ...(Number.isFinite(expiresIn) && expiresIn > 0 ? { expiresAt: Date.now() + expiresIn * 1000 } : {}),
    ...(typeof body.scope === 'string' ? { scope: body.scope } : {}),
  };
}

/** A provider's error code as it may be repeated (RFC 6749's are short ASCII words); anything else is not. */
const PROVIDER_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/** Token answers are a few hundred bytes; a token URL that streams more is cut off, not buffered. */
const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

/** The form POST, its answer read up to the cap whatever its status. */
function postForm(endpoint: TokenEndpoint, form: Record<string, string>): Promise<{ statusCode: number; body: string }> {
  return new Promise((resolve, reject) => {
    const stream = got.stream.post(endpoint.url, {
      form,
      headers: { accept: 'application/json', 'user-agent': 'plugboard' },
      throwHttpErrors: false,
      retry: { limit: 0 },
      followRedirect: false,
      timeout: { request: TOKEN_TIMEOUT_MS },
      ...(endpoint.egress ? { agent: sharedEgressAgents(endpoint.egress) } : {}),
    });
    let statusCode = 0;
    let size = 0;
    const chunks: Buffer[] = [];
    stream.once('response', (response: { statusCode: number }) => {
      statusCode = response.statusCode;
    });
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_TOKEN_ANSWER_BYTES) chunks.push(chunk);
      else {
        stream.destroy();
        reject(new UpstreamError(`The OAuth token endpoint answered more than ${MAX_TOKEN_ANSWER_BYTES} bytes`, 'oauth_token_answer_too_large'));
      }
    });
    stream.once('end', () => resolve({ statusCode, body: Buffer.concat(chunks).toString('utf8') }));
    stream.once('error', reject);
  });
}

function parseBody(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

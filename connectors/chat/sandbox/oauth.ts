import { randomBytes, randomInt } from 'node:crypto';
import {
  type AuthorizeProvider,
  type IssuedTokens,
  OAuthAuthority,
  clientCredentials,
  isRedirectUri,
  pkceMethod,
  pkceVerifies,
  plainError,
} from '../../../testing/oauth/index.ts';
import type { Args } from './args.ts';
import { SlackError } from './errors.ts';
import type { SandboxStore } from './store.ts';
import type { SlackSandboxOptions } from './types.ts';
import type { Wire } from './wire.ts';

/**
 * Slack's OAuth v2 with token rotation on: the consent page at /oauth/v2/authorize, the exchange and
 * refresh at oauth.v2.access (HTTP 200 `{ok:false, error}` on failure), expiring `xoxe.xoxb-` bot
 * tokens, and rotated `xoxe-1-` refresh tokens whose reuse revokes the installation.
 */

export const AUTHORIZE_PATH = '/oauth/v2/authorize';
export const ACCESS_METHOD = 'oauth.v2.access';
/** Slack's lifetime of a rotating token: 12 hours. */
const DEFAULT_TTL_SECONDS = 43_200;

const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
const SHAPES = {
  code: () => `${digits(10)}.${digits(13)}.${randomBytes(32).toString('hex')}`,
  access: () => `xoxe.xoxb-1-${randomBytes(36).toString('base64url')}`,
  refresh: () => `xoxe-1-${randomBytes(36).toString('base64url')}`,
};

export class SlackOAuth {
  readonly authority: OAuthAuthority;
  readonly authorize: AuthorizeProvider;

  constructor(
    private readonly store: SandboxStore,
    private readonly staticToken: string,
    options: SlackSandboxOptions,
  ) {
    this.authority = new OAuthAuthority(options, {
      who: 'SlackSandbox',
      defaultTtlSeconds: DEFAULT_TTL_SECONDS,
      shapes: SHAPES,
      now: options.clock ?? Date.now,
    });
    this.authorize = {
      path: AUTHORIZE_PATH,
      refuse: (params) => this.refuseAuthorize(params),
      consent: (params) => this.consent(params),
      allow: (params) => this.allow(params),
    };
  }

  /** Why a bearer token that is not the static one is refused: Slack tells expired from revoked from unknown. */
  refusal(token: string): 'token_expired' | 'token_revoked' | 'invalid_auth' | undefined {
    const state = this.authority.book.accessState(token);
    if (state === 'valid') return undefined;
    return state === 'expired' ? 'token_expired' : state === 'revoked' ? 'token_revoked' : 'invalid_auth';
  }

  /** oauth.v2.access: client by HTTP Basic or body, then the code exchange or the refresh. */
  access(args: Args, authorization: string | null): Wire {
    const client = clientCredentials(authorization, { get: (name) => args.str(name) });
    if (client.id === '') this.fail('invalid_client_id');
    const grantType = args.str('grant_type') ?? 'authorization_code';
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') this.fail('invalid_grant_type');
    const check = client.secret === '' ? 'bad_secret' : this.authority.clients.check(client.id, client.secret);
    if (check !== 'ok') this.fail(check === 'unknown_client' ? 'invalid_client_id' : 'bad_client_secret');
    return grantType === 'refresh_token' ? this.refresh(args, client.id) : this.exchange(args, client.id);
  }

  /** auth.revoke: an OAuth token's installation ends; the static token (a pasted one) is never revoked. */
  revoke(token: string, test: boolean): Wire {
    const revoked = !test && token !== this.staticToken && this.authority.book.revoke(token);
    return { ok: true, revoked };
  }

  private exchange(args: Args, clientId: string): Wire {
    const code = args.str('code');
    if (code === undefined) this.fail('invalid_arguments');
    const pending = this.authority.book.takeCode(code);
    if (!pending || pending.clientId !== clientId) this.fail('invalid_code');
    if (args.str('redirect_uri') !== pending.redirectUri) this.fail('bad_redirect_uri');
    // Slack documents code_verifier but no error of its own for it: a failed PKCE check reads as a bad code.
    if (pending.pkce && !pkceVerifies(pending.pkce, args.str('code_verifier') ?? '')) this.fail('invalid_code');
    this.authority.granted('authorization_code');
    return this.answer(this.authority.book.open(pending));
  }

  private refresh(args: Args, clientId: string): Wire {
    const token = args.str('refresh_token');
    if (token === undefined) this.fail('invalid_arguments');
    const outcome = this.authority.book.refreshGrant(token, clientId, true);
    if (typeof outcome === 'string') this.fail('invalid_refresh_token');
    this.authority.granted('refresh_token');
    return this.answer(outcome);
  }

  private answer(issued: IssuedTokens): Wire {
    const bot = this.store.botByUserId(this.store.botUserId)!;
    return {
      ok: true,
      app_id: bot.app_id,
      authed_user: { id: this.installer().id },
      scope: issued.grant.scope,
      token_type: 'bot',
      access_token: issued.accessToken,
      bot_user_id: bot.user_id,
      team: { id: this.store.team.id, name: this.store.team.name },
      enterprise: null,
      is_enterprise_install: false,
      expires_in: issued.expiresIn,
      refresh_token: issued.refreshToken,
    };
  }

  private refuseAuthorize(params: URLSearchParams) {
    const clientId = params.get('client_id') ?? '';
    if (clientId === '' || !this.authority.clients.knows(clientId)) {
      return {
        status: 400,
        code: 'invalid_client_id',
        page: plainError(400, 'invalid_client_id', 'The client_id parameter is missing or names no Slack app.'),
      };
    }
    if (!isRedirectUri(params.get('redirect_uri') ?? '')) {
      return {
        status: 400,
        code: 'bad_redirect_uri',
        page: plainError(400, 'bad_redirect_uri', 'The redirect_uri parameter is missing or is not an http(s) URL.'),
      };
    }
    if (params.has('code_challenge') && pkceMethod(params.get('code_challenge_method')) === undefined) {
      return { status: 400, code: 'invalid_request', page: plainError(400, 'invalid_request', 'code_challenge_method must be S256 or plain.') };
    }
    return undefined;
  }

  private consent(params: URLSearchParams) {
    const app = this.store.botByUserId(this.store.botUserId)!.name;
    const { name, domain } = this.store.team;
    return {
      title: `Slack: ${app} is requesting permission`,
      heading: `${app} is requesting permission to access the ${name} workspace`,
      account: `Signed in as ${this.installer().real_name ?? this.installer().name} on ${domain}.slack.com`,
      scopes: [
        { label: `What will ${app} be able to view and do?`, scopes: scopeList(params.get('scope')) },
        { label: `What will ${app} be able to do on your behalf?`, scopes: scopeList(params.get('user_scope')) },
      ],
      denyLabel: 'Cancel',
    };
  }

  private allow(params: URLSearchParams): Array<[string, string]> {
    const challenge = params.get('code_challenge');
    const code = this.authority.book.issueCode({
      clientId: params.get('client_id')!,
      redirectUri: params.get('redirect_uri')!,
      scope: scopeList(params.get('scope')).join(','),
      pkce: challenge ? { challenge, method: pkceMethod(params.get('code_challenge_method'))! } : undefined,
      offline: true,
    });
    const state = params.get('state');
    return state === null
      ? [['code', code]]
      : [
          ['code', code],
          ['state', state],
        ];
  }

  /** The person who installs the app: the workspace's primary owner, else its first active human. */
  private installer() {
    const humans = this.store.users.filter((user) => !user.is_bot && !user.deleted && user.id !== 'USLACKBOT');
    return humans.find((user) => user.is_primary_owner) ?? humans.find((user) => user.is_owner) ?? humans[0] ?? this.store.users[0]!;
  }

  private fail(code: string): never {
    throw new SlackError(this.authority.refuse(code));
  }
}

/** Slack separates scopes with commas (spaces tolerated). */
function scopeList(value: string | null): string[] {
  return (value ?? '').split(/[\s,]+/).filter((scope) => scope !== '');
}

import { AccessDeniedError, invalidField, NotFoundError, PlugboardError } from '../../errors.ts';
import type { Store } from '../../stores/types.ts';
import type { Loc } from '../cloud-api/actor-kind.ts';
import { workspaceOf } from '../cloud-api/organization-workspaces.ts';
import { requireOrganization } from '../permissions/request-access.ts';
import type { PublicInitiateOAuthRequest, PublicInitiateOAuthResponse, PublicOAuthAppList, PublicOAuthCredentialsRequest } from '../types.generated.ts';
import type { AppOwner, OAuthApps } from './oauth-apps.ts';
import type { OAuthFlows } from './oauth-flows.ts';
import type { OAuthSourceTypes, TypeScope } from './oauth-source-types.ts';

/** Whose app a route names: `/workspaces/{id}` or `/organizations/{id}`. */
export interface AppOwnerRef {
  kind: AppOwner['kind'];
  id: string;
}

/**
 * The public cloud API's OAuth: the apps a workspace or organization registers (Airbyte's OAuth
 * credential overrides), and `initiateOAuth`, which sends the end user to the provider's consent and,
 * through Plugboard's callback, back to the caller's redirect URL with a `secret_id` for POST /v1/sources.
 */
export class PublicOAuth {
  constructor(
    private readonly store: Store,
    private readonly apps: OAuthApps,
    private readonly types: OAuthSourceTypes,
    private readonly flows: OAuthFlows,
  ) {}

  /** Registers (or replaces) the owner's app for a source type with an OAuth flow. */
  async putApp(organizationId: string, ref: AppOwnerRef, request: PublicOAuthCredentialsRequest): Promise<void> {
    const owner = await this.owner(organizationId, ref);
    assertSource(request.actorType, ['body', 'actorType']);
    const type = await this.types.resolve(scopeOf(owner), request.name, ['body', 'name']);
    const { client_id, client_secret } = request.configuration.credentials;
    await this.apps.put(owner, type, { clientId: client_id, clientSecret: client_secret });
  }

  /**
   * The apps registered for the owner, client ids only (secrets are never answered): an
   * organization's, or a workspace's own followed by its organization's (which serve its consents
   * for types it has no app of).
   */
  async listApps(organizationId: string, ref: AppOwnerRef): Promise<PublicOAuthAppList> {
    const owner = await this.owner(organizationId, ref);
    const owners: AppOwner[] = owner.kind === 'workspace' ? [owner, { kind: 'organization', id: organizationId, organizationId }] : [owner];
    const apps = await this.apps.list(owners);
    return {
      data: apps.map((app) => ({
        owner: app.owner,
        ownerId: app.ownerId,
        actorType: 'source',
        name: app.sourceType,
        clientId: app.clientId,
        updatedAt: new Date(app.updatedAt).toISOString(),
      })),
    };
  }

  /** Deletes the owner's app registered under that name (the type's name, as given or as it resolves); 404 when there is none. */
  async deleteApp(organizationId: string, ref: AppOwnerRef, actorType: string, name: string): Promise<void> {
    const owner = await this.owner(organizationId, ref);
    if (actorType !== 'source' && actorType !== 'destination') {
      throw invalidField(['path', 'actorType'], 'value is not a valid enumeration member; permitted: "source", "destination"', 'type_error.enum');
    }
    // A type that no longer resolves (a deleted definition) still has its app deleted by the name it was registered under.
    const resolved = await this.types.resolve(scopeOf(owner), name, ['path', 'name']).catch((error: unknown) => {
      if (error instanceof PlugboardError) return undefined;
      throw error;
    });
    const removed =
      actorType === 'source' && ((await this.apps.remove(owner, name)) || (resolved !== undefined && (await this.apps.remove(owner, resolved.name))));
    if (!removed) throw new NotFoundError(`No OAuth credentials for ${actorType} ${name} are registered here`, 'oauth_credentials_not_found');
  }

  /**
   * The consent URL for a source of the type in the workspace. `redirectUrl` must be an absolute
   * http(s) URL without user info. The server never fetches it: it is only the Location of the
   * callback's redirect, which the end user's browser follows.
   */
  async initiate(organizationId: string, request: PublicInitiateOAuthRequest, callbackUrl: string): Promise<PublicInitiateOAuthResponse> {
    const workspace = await workspaceOf(this.store, organizationId, request.workspaceId);
    const named = request.sourceType ?? request.name;
    const loc: Loc = ['body', request.sourceType === undefined && request.name !== undefined ? 'name' : 'sourceType'];
    if (named === undefined) throw invalidField(loc, 'field required (or the deprecated name)', 'value_error.missing');
    const redirectUrl = checkedRedirectUrl(request.redirectUrl, ['body', 'redirectUrl']);
    const type = await this.types.resolve({ organizationId, workspaceId: workspace.id }, named, loc);
    const scopes = request.requestedScopes && [...request.requestedScopes, ...(request.requestedOptionalScopes ?? [])];
    const { consentUrl } = await this.flows.begin({
      binding: { flow: 'public_api', organizationId, workspaceId: workspace.id, sourceType: type.name },
      type,
      callbackUrl,
      redirectUrl,
      ...(scopes ? { scopes: [...new Set(scopes)] } : {}),
    });
    return { consentUrl };
  }

  /** An organization route reaches the token's own organization only (another is a 403); a workspace route a workspace of it (another is not found). */
  private async owner(organizationId: string, ref: AppOwnerRef): Promise<AppOwner> {
    if (ref.kind === 'organization') {
      if (ref.id.toLowerCase() !== organizationId) throw new AccessDeniedError();
      requireOrganization();
      return { kind: 'organization', id: organizationId, organizationId };
    }
    const workspace = await workspaceOf(this.store, organizationId, ref.id);
    return { kind: 'workspace', id: workspace.id, organizationId };
  }
}

function scopeOf(owner: AppOwner): TypeScope {
  return owner.kind === 'workspace' ? { organizationId: owner.organizationId, workspaceId: owner.id } : { organizationId: owner.organizationId };
}

function assertSource(actorType: string, loc: Loc): void {
  if (actorType !== 'source') throw invalidField(loc, 'Plugboard runs OAuth flows for sources only', 'value_error.actor_type');
}

/** A URL the browser may be sent to: absolute http(s), no user info (which would put credentials in a Location). */
export function checkedRedirectUrl(value: string, loc: Loc): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw invalidField(loc, 'must be an absolute http(s) URL', 'value_error.url');
  if (url.username !== '' || url.password !== '') throw invalidField(loc, 'must not carry user info (user:password@)', 'value_error.url.userinfo');
  return url.href;
}

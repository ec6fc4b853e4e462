import { NotFoundError } from '../../errors.ts';
import type { AccessScope, EmbeddedSourceChanges, HostedConnectorRecord, HostedConnectors } from '../hosted-connectors.ts';
import type { WidgetScope } from '../token-claims.ts';
import type { EmbeddedOAuthInitiateResponse, EmbeddedSourceCreateRequest, EmbeddedSourceUpdateRequest } from '../types.generated.ts';
import type { FlowBinding } from './flow-binding.ts';
import type { OAuthFlows } from './oauth-flows.ts';
import type { OAuthSecrets } from './oauth-secrets.ts';
import type { OAuthSourceTypes } from './oauth-source-types.ts';

/** Where the embedded flow runs: Plugboard's callback, and its own page the widget watches for the outcome. */
export interface EmbeddedUrls {
  callbackUrl: string;
  /** `<public URL>/widget/oauth/done`: fixed by the server, never the caller's. */
  doneUrl: string;
}

/**
 * The widget's OAuth: a consent for a source of a template the caller may use (the rules of
 * HostedConnectors.createEmbeddedSource: the organization's source templates, a widget only those its
 * tags offer), and embedded sources created or updated with the `secret_id` it granted in place of
 * credentials. Its secrets serve embedded sources of the token's workspace and the template's
 * connector type only.
 */
export class EmbeddedOAuth {
  constructor(
    private readonly types: OAuthSourceTypes,
    private readonly flows: OAuthFlows,
    private readonly secrets: OAuthSecrets,
    private readonly connectors: HostedConnectors,
  ) {}

  async initiate(
    scope: Required<AccessScope>,
    widget: WidgetScope | undefined,
    templateId: string,
    urls: EmbeddedUrls,
  ): Promise<EmbeddedOAuthInitiateResponse> {
    const template = await this.connectors.offeredTemplate(scope, widget, templateId);
    const type = await this.types.resolve({ organizationId: scope.organization_id, workspaceId: scope.workspace_id }, template.connector_type, [
      'body',
      'source_template_id',
    ]);
    const { consentUrl, state } = await this.flows.begin({
      binding: this.binding(scope, template.connector_type),
      type,
      callbackUrl: urls.callbackUrl,
      redirectUrl: urls.doneUrl,
    });
    return { consent_url: consentUrl, state };
  }

  /** With `secret_id`: the source made with the secret's credentials (taken once it is stored); else as HostedConnectors makes it. */
  async createSource(scope: Required<AccessScope>, widget: WidgetScope | undefined, request: EmbeddedSourceCreateRequest): Promise<HostedConnectorRecord> {
    const { secret_id: secretId, credentials, ...rest } = request;
    if (secretId === undefined) return this.connectors.createEmbeddedSource(scope, widget, { ...rest, credentials });
    // The template first: a template the caller may not use is not found, and the secret stays unspent.
    const template = await this.connectors.offeredTemplate(scope, widget, request.source_template_id);
    return this.secrets.spend(secretId, this.binding(scope, template.connector_type), (granted) =>
      this.connectors.createEmbeddedSource(scope, widget, { ...rest, credentials: granted }),
    );
  }

  /** With `secret_id`: the source's credentials replaced by the secret's (taken once they are stored). */
  async updateSource(
    scope: Required<AccessScope>,
    widget: WidgetScope | undefined,
    id: string,
    request: EmbeddedSourceUpdateRequest,
  ): Promise<HostedConnectorRecord> {
    const { secret_id: secretId, ...changes } = request;
    if (secretId === undefined) return this.connectors.updateEmbeddedSource(scope, widget, id, changes as EmbeddedSourceChanges);
    const source = await this.connectors.get(scope, id).catch((error: unknown) => {
      throw error instanceof NotFoundError ? new NotFoundError(`Source ${id} not found`, 'source_not_found') : error;
    });
    return this.secrets.spend(secretId, this.binding(scope, source.connector_type), (granted) =>
      this.connectors.updateEmbeddedSource(scope, widget, id, { ...changes, credentials: granted }),
    );
  }

  private binding(scope: Required<AccessScope>, connectorType: string): FlowBinding {
    return { flow: 'embedded', organizationId: scope.organization_id, workspaceId: scope.workspace_id, sourceType: connectorType };
  }
}

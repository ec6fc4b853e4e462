import { html } from '../html.ts';
import { ApplicationSettings } from './application-settings.ts';
import { OAuthAppSettings } from './oauth-app-settings.ts';
import { WebhookSettings } from './webhook-settings.ts';
import { WorkspaceOAuthSettings } from './workspace-oauth-settings.ts';

/** The organization's settings: OAuth apps (its own and each workspace's), the notification webhook and its delivery log, applications and permissions. */
export function Settings({ organizationId }: { organizationId: string }) {
  return html`<h1 tabindex="-1">Settings</h1>
    <${OAuthAppSettings} organizationId=${organizationId} />
    <${WorkspaceOAuthSettings} />
    <${WebhookSettings} />
    <${ApplicationSettings} organizationId=${organizationId} />`;
}

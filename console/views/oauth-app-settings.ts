import { html } from '../html.ts';
import { useCan } from '../permissions.ts';
import { OAuthAppEditor } from './oauth-app-editor.ts';

/** The organization's OAuth apps, by source type: those consents use in every workspace without its own. */
export function OAuthAppSettings({ organizationId }: { organizationId: string }) {
  const isAdmin = useCan('admin');
  return html`<section aria-labelledby="oauth-heading">
    <h2 id="oauth-heading">OAuth apps</h2>
    <p class="muted">The app (client id and secret) that consents use for a source type: Connect with Slack, with Google, and reconnects.</p>
    <${OAuthAppEditor}
      base=${`/v1/organizations/${organizationId}/oauthCredentials`}
      owner="organization"
      ownerName="the organization"
      idPrefix="oauth"
      isAdmin=${isAdmin}
    />
  </section>`;
}

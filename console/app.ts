import { useEffect, useState } from 'preact/hooks';
import type { PublicPermissionList } from '../core/hosted/types.generated.ts';
import { call, session, signedOut } from './api.ts';
import { html } from './html.ts';
import { PermissionsContext } from './permissions.ts';
import { useFinishedReconnect } from './reconnect.ts';
import { href, useRoute } from './route.ts';
import { SignIn } from './sign-in.ts';
import { Loading } from './states.ts';
import { ConnectionPage } from './views/connection-page.ts';
import { EndUsers } from './views/end-users.ts';
import { JobPage } from './views/job-page.ts';
import { JobList } from './views/job-list.ts';
import { Organization } from './views/organization.ts';
import { SearchPlayground } from './views/search-playground.ts';
import { Settings } from './views/settings.ts';
import { WorkspacePage } from './views/workspace-page.ts';

type Session = { client_id: string; organization_id: string; permissions: PublicPermissionList['data'] };

/** The console: the sign-in form, or the signed-in shell with its navigation and the view the address names. */
export function App() {
  const [current, setCurrent] = useState<Session | null>();
  const load = async () => {
    const who = await session('GET');
    if (!who) return setCurrent(null);
    const { data } = await call<PublicPermissionList>('GET', '/v1/permissions');
    setCurrent({ ...who, permissions: data });
  };
  useEffect(() => {
    void load().catch(() => setCurrent(null));
    const onSignedOut = () => setCurrent(null);
    signedOut.addEventListener('signed-out', onSignedOut);
    return () => signedOut.removeEventListener('signed-out', onSignedOut);
  }, []);
  if (current === undefined) return html`<${Loading} what="the console" />`;
  if (current === null) return html`<${SignIn} onSignedIn=${() => void load()} />`;
  const signOut = async () => {
    await session('DELETE');
    setCurrent(null);
  };
  return html`<${PermissionsContext.Provider} value=${current.permissions}>
    <a class="skip" href="#content">Skip to content</a>
    <header class="top">
      <span class="brand">Plugboard console</span>
      <nav aria-label="Main">
        <a href=${href()}>Workspaces</a>
        <a href=${href('jobs')}>Jobs</a>
        <a href=${href('settings')}>Settings</a>
      </nav>
      <span class="who">Signed in as <code>${current.client_id}</code></span>
      <button type="button" class="secondary" onClick=${signOut}>Sign out</button>
    </header>
    <main id="content"><${Notice} /><${View} organizationId=${current.organization_id} /></main>
  <//>`;
}

/** What came back from a provider's consent page, said once at the top of the view. */
function Notice() {
  const message = useFinishedReconnect();
  return message ? html`<p class="notice" role="status">${message}</p>` : null;
}

function View({ organizationId }: { organizationId: string }) {
  const [section, id, part] = useRoute();
  if (section === 'settings') return html`<${Settings} organizationId=${organizationId} />`;
  if (section === 'workspaces' && id && part === 'end-users') return html`<${EndUsers} workspaceId=${id} />`;
  if (section === 'workspaces' && id && part === 'search') return html`<${SearchPlayground} workspaceId=${id} />`;
  if (section === 'workspaces' && id) return html`<${WorkspacePage} workspaceId=${id} />`;
  if (section === 'connections' && id) return html`<${ConnectionPage} connectionId=${id} />`;
  if (section === 'jobs' && id) return html`<${JobPage} jobId=${id} />`;
  if (section === 'jobs') return html`<${JobList} />`;
  return html`<${Organization} />`;
}

import { useEffect, useState } from 'preact/hooks';
import type { PublicInitiateOAuthResponse, PublicSource } from '../core/hosted/types.generated.ts';
import { type ApiError, call } from './api.ts';
import { href } from './route.ts';

/** The reconnect under way while the browser is at the provider's consent page (this tab only). */
const PENDING = 'plugboard-console-reconnect';

/**
 * Sends the browser to the provider's consent page for a source whose grant is gone; the provider
 * comes back to /console?secret_id=… (or ?error=…), where useFinishedReconnect takes it up.
 */
export async function startReconnect(source: PublicSource): Promise<void> {
  const { consentUrl } = await call<PublicInitiateOAuthResponse>('POST', '/v1/sources/initiateOAuth', {
    workspaceId: source.workspaceId,
    sourceType: source.sourceType,
    redirectUrl: `${location.origin}/console`,
  });
  sessionStorage.setItem(PENDING, JSON.stringify({ sourceId: source.sourceId, workspaceId: source.workspaceId, name: source.name }));
  location.assign(consentUrl);
}

/** Back from a consent: the source given the new grant's secret (PATCH with secretId), the address cleaned; what happened, to say. */
export function useFinishedReconnect(): string | undefined {
  const [message, setMessage] = useState<string>();
  useEffect(() => {
    const query = new URLSearchParams(location.search);
    const pending = sessionStorage.getItem(PENDING);
    if (!pending || !(query.has('secret_id') || query.has('error'))) return;
    sessionStorage.removeItem(PENDING);
    const { sourceId, workspaceId, name } = JSON.parse(pending) as { sourceId: string; workspaceId: string; name: string };
    // The workspace is shown once the source has its new secret, so its first read finds it reconnected.
    const showWorkspace = (text: string) => {
      history.replaceState(null, '', `/console${href('workspaces', workspaceId)}`);
      window.dispatchEvent(new HashChangeEvent('hashchange'));
      setMessage(text);
    };
    const secretId = query.get('secret_id');
    if (!secretId) return showWorkspace(`${name} was not reconnected: the consent was declined (${query.get('error')}). Try again when ready.`);
    call('PATCH', `/v1/sources/${sourceId}`, { secretId })
      .then(() => showWorkspace(`${name} is reconnected.`))
      .catch((failure: ApiError) => showWorkspace(`${name} could not be reconnected: ${failure.message}`));
  }, []);
  return message;
}

import { useState } from 'preact/hooks';
import { ApiError, session } from './api.ts';
import { html } from './html.ts';
import { ErrorNote } from './states.ts';

/** Application credentials for a session; the secret goes to the server once and is never kept in the page. */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    setBusy(true);
    try {
      await session('POST', { client_id: String(fields.get('client_id')), client_secret: String(fields.get('client_secret')) });
      form.reset();
      onSignedIn();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : new ApiError(0, 'The server could not be reached.'));
    } finally {
      setBusy(false);
    }
  };
  return html`<main class="sign-in">
    <h1 tabindex="-1">Sign in to the Plugboard console</h1>
    <p class="muted">Use an application's client id and secret (the server prints the first one's at its first start).</p>
    <form onSubmit=${submit}>
      <label for="client-id">Client id</label>
      <input id="client-id" name="client_id" autocomplete="username" required />
      <label for="client-secret">Client secret</label>
      <input id="client-secret" name="client_secret" type="password" autocomplete="current-password" required />
      <${ErrorNote} error=${error && (error.status === 401 ? new ApiError(401, 'These credentials are not valid.') : error)} />
      <button type="submit" disabled=${busy}>Sign in</button>
    </form>
  </main>`;
}

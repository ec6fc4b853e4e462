import { useState } from 'preact/hooks';
import { ApiError, call } from './api.ts';
import { html } from './html.ts';

/**
 * A form's submission: busy while it runs, its failure kept to show beside the form (a 422's issues
 * each named by their field), the form left as typed so the user can correct it, emptied once it succeeded.
 */
export function useSubmit(action: (fields: FormData) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setBusy(true);
    setError(undefined);
    try {
      await action(new FormData(form));
      // Done: nothing typed (a client secret least of all) stays in the form.
      form.reset();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : new ApiError(0, (failure as Error).message));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, onSubmit };
}

/** A JSON object typed in a textarea; a syntax error is the user's to fix before anything is sent. */
function parseJsonField(fields: FormData, name: string, label: string): Record<string, unknown> {
  try {
    const value = JSON.parse(String(fields.get(name) ?? '{}'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // answered below, with the field's name
  }
  throw new ApiError(422, `${label} must be a JSON object.`);
}

/** A labelled control with an optional hint, bound by id for screen readers. */
export function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: unknown }) {
  return html`<div class="field">
    <label for=${id}>${label}</label>
    ${hint && html`<p class="hint" id=${`${id}-hint`}>${hint}</p>`}
    ${children}
  </div>`;
}

/** Creates a source or a destination from its form: the name, and the JSON configuration with the type set. */
export async function createActor(noun: 'source' | 'destination', workspaceId: string, fields: FormData, type: string): Promise<void> {
  const configuration = { ...parseJsonField(fields, 'configuration', 'Configuration'), [`${noun}Type`]: type };
  await call('POST', `/v1/${noun}s`, { name: String(fields.get('name')), workspaceId, configuration });
}

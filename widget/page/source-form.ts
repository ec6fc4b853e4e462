import type { SourceRecord } from '../protocol.ts';
import type { ConnectorSpecification, SourceInput, ValidationIssue } from './api.ts';
import { credentialsField } from './credentials-field.ts';
import { h, uniqueId } from './dom.ts';
import { type Field, schemaField, textField } from './form-fields.ts';
import { checkFields, combined, type FormFailure, issuesOf, showIssues, summaryOf } from './form-issues.ts';
import { oauthChoice } from './oauth-choice.ts';
import { waitingFor } from './oauth-messages.ts';
// A module of plain constants and types: the one definition of each auth kind's credential field.
import { CREDENTIAL_FIELD } from '../../core/sdk/types.ts';

export interface SourceFormOptions {
  specification: ConnectorSpecification;
  /** Editing this source, else creating one. */
  source?: SourceRecord;
  heading: string;
  /** Sends the form's input; answers the failure to show, or undefined when it worked. */
  submit(input: SourceInput): Promise<FormFailure | undefined>;
  /**
   * Creating a source of a type with an OAuth flow: asks the end user's consent and creates the source
   * with what it granted. Called synchronously from the click, so that it can open the consent's window.
   */
  connectWithOAuth?(input: SourceInput): Promise<FormFailure | undefined>;
  cancel(): void;
  /** Says something to the end user through the page's live regions. */
  announce(message: string, kind: 'status' | 'alert'): void;
}

/**
 * The form that creates or edits a source, generated from the connector type's JSON Schemas: its
 * name, its credentials, and its replication settings when the type has any. A new source of a type
 * with an OAuth flow is connected by consent first ("Connect with <provider>", after the settings),
 * its token form behind "Use a token instead". What the form's own checks find and what the server
 * answers show together: each issue beside the field its `loc` names, the rest above the buttons.
 */
export function sourceForm(options: SourceFormOptions): HTMLElement {
  const { specification, source } = options;
  const updating = source !== undefined;
  const name = textField(['body', 'name'], { title: 'Source name', description: 'A name to recognise this connection by.', required: !updating }, source?.name);
  // A source configured rather than given credentials (auth_type config) has no credential kind to start on.
  const kind = source && source.auth_type in CREDENTIAL_FIELD ? CREDENTIAL_FIELD[source.auth_type as keyof typeof CREDENTIAL_FIELD] : undefined;
  const credentials = credentialsField(specification.credentials, updating, kind);
  const settings = specification.replication_config;
  const settingFields = Object.entries(settings?.properties ?? {}).map(([key, schema]) =>
    // A new source starts from the schema's defaults; an edited one from what it has.
    schemaField(
      ['body', 'replication_config', key],
      key,
      schema,
      settings?.required?.includes(key) ?? false,
      source ? source.replication_config?.[key] : schema.default,
    ),
  );
  const fields: Field[] = [name, credentials, ...settingFields];
  const formError = h('div', { class: 'form-error', id: uniqueId('form-error'), hidden: true });
  const submitButton = h('button', { type: 'submit', class: 'primary' }, updating ? 'Save' : 'Connect');
  const headingId = uniqueId('form-heading');
  const settingsSet =
    settingFields.length > 0 ? h('fieldset', { class: 'settings' }, h('legend', {}, 'Sync settings'), ...settingFields.map((f) => f.root)) : null;
  const provider = specification.oauth?.provider_name;
  const oauth =
    provider && options.connectWithOAuth && !updating
      ? oauthChoice(
          provider,
          credentials.root,
          () => void connect(),
          (usingToken) => (submitButton.hidden = !usingToken),
        )
      : undefined;
  submitButton.hidden = oauth !== undefined;
  const form = h(
    'form',
    { novalidate: true, 'aria-labelledby': headingId },
    name.root,
    ...(oauth ? [settingsSet, oauth.root] : [credentials.root, settingsSet]),
    formError,
    h('div', { class: 'actions' }, submitButton, h('button', { type: 'button', onclick: () => options.cancel() }, 'Cancel')),
  );
  /** The fields in play: not the hidden token form while connecting by consent. */
  const active = () => (oauth && !oauth.usingToken ? fields.filter((field) => field !== credentials) : fields);
  const buttons = () => [submitButton, ...(oauth ? [oauth.connectButton] : [])];

  /**
   * Runs one way of saving (the form's submit, or the consent) and shows every problem at once: the
   * form's own checks with the server's answer. A submit is sent whatever the checks found (the
   * server refuses what they refuse, and reports what they can't see); a consent is not asked for
   * while they find something, or its window would open for nothing.
   */
  async function run(save: (input: SourceInput) => Promise<FormFailure | undefined>, busy: string, consenting: boolean): Promise<void> {
    if (submitButton.disabled) return;
    const inPlay = active();
    // A new try: the last one's messages go, beside the fields and in the alert.
    options.announce('', 'alert');
    showIssues(inPlay, formError, []);
    const own = checkFields(inPlay);
    if (consenting && own.length > 0) return report(inPlay, own);
    for (const button of buttons()) button.disabled = true;
    form.setAttribute('aria-busy', 'true');
    options.announce(busy, 'status');
    const saving = save(inputOf(inPlay, settingFields.length > 0));
    try {
      const failure = await saving;
      if (failure) report(inPlay, combined(inPlay, own, issuesOf(failure)), failure.action);
    } finally {
      for (const button of buttons()) button.disabled = false;
      form.removeAttribute('aria-busy');
    }
  }
  /** Shows the issues beside their fields (the rest above the buttons), announces them, and takes the focus to the first. */
  function report(inPlay: Field[], issues: ValidationIssue[], action?: FormFailure['action']): void {
    const placed = showIssues(inPlay, formError, issues, action);
    options.announce(summaryOf(issues, placed), 'alert');
    placed[0]?.focusTarget.focus();
    if (placed.length === 0) formError.focus();
  }
  // Synchronous up to the call of connectWithOAuth: the click's activation is what lets its window open.
  const connect = () => run((input) => options.connectWithOAuth!(input), waitingFor(provider!), true);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (oauth && !oauth.usingToken) void connect();
    else void run(options.submit, updating ? 'Saving…' : 'Checking the credentials and connecting…', false);
  });
  return h(
    'section',
    { class: 'view' },
    h('h2', { id: headingId, tabindex: -1 }, options.heading),
    h('p', { class: 'type' }, specification.display_name),
    form,
  );
}

/** The body to send: each field's value at its place under "body" (settings are sent whole: an update replaces them). */
function inputOf(fields: Field[], hasSettings: boolean): SourceInput {
  const body: Record<string, unknown> = hasSettings ? { replication_config: {} } : {};
  for (const field of fields) {
    const value = field.read();
    if (value === undefined) continue;
    const path = field.loc.slice(1);
    let at = body;
    for (const key of path.slice(0, -1)) {
      at[key] ??= {};
      at = at[key] as Record<string, unknown>;
    }
    at[path.at(-1)!] = value;
  }
  return body as SourceInput;
}

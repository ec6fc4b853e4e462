import type { SourceRecord } from '../protocol.ts';
import type { ApiFailure, ConnectorSpecification, SourceInput, ValidationIssue } from './api.ts';
import { credentialsField } from './credentials-field.ts';
import { h, uniqueId } from './dom.ts';
import { type Field, schemaField, textField } from './form-fields.ts';
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
  submit(input: SourceInput): Promise<ApiFailure | undefined>;
  /**
   * Creating a source of a type with an OAuth flow: asks the end user's consent and creates the source
   * with what it granted. Called synchronously from the click, so that it can open the consent's window.
   */
  connectWithOAuth?(input: SourceInput): Promise<ApiFailure | undefined>;
  cancel(): void;
  /** Says something to the end user through the page's live regions. */
  announce(message: string, kind: 'status' | 'alert'): void;
}

/**
 * The form that creates or edits a source, generated from the connector type's JSON Schemas: its
 * name, its credentials, and its replication settings when the type has any. A new source of a type
 * with an OAuth flow is connected by consent first ("Connect with <provider>", after the settings),
 * its token form behind "Use a token instead". A 422 puts each issue beside the field its `loc`
 * names; what names no field is listed above the buttons.
 */
export function sourceForm(options: SourceFormOptions): HTMLElement {
  const { specification, source } = options;
  const updating = source !== undefined;
  const name = textField(['body', 'name'], { title: 'Source name', description: 'A name to recognise this connection by.', required: !updating }, source?.name);
  const credentials = credentialsField(specification.credentials, updating, source ? CREDENTIAL_FIELD[source.auth_type] : undefined);
  const settings = specification.replication_config;
  const settingFields = Object.entries(settings?.properties ?? {}).map(([key, schema]) =>
    schemaField(['body', 'replication_config', key], key, schema, settings?.required?.includes(key) ?? false, source?.replication_config?.[key]),
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

  /** Runs one way of saving (the form's submit, or the consent); shows what it answers. */
  async function run(save: (input: SourceInput) => Promise<ApiFailure | undefined>, busy: string): Promise<void> {
    if (submitButton.disabled) return;
    const inPlay = active();
    showIssues(inPlay, formError, []);
    for (const button of buttons()) button.disabled = true;
    form.setAttribute('aria-busy', 'true');
    options.announce(busy, 'status');
    const saving = save(inputOf(inPlay, settingFields.length > 0));
    try {
      const failure = await saving;
      if (!failure) return;
      const issues = issuesOf(failure);
      const placed = showIssues(inPlay, formError, issues);
      options.announce(summaryOf(issues, placed), 'alert');
      placed[0]?.focusTarget.focus();
      if (placed.length === 0) formError.focus();
    } finally {
      for (const button of buttons()) button.disabled = false;
      form.removeAttribute('aria-busy');
    }
  }
  // Synchronous up to the call of connectWithOAuth: the click's activation is what lets its window open.
  const connect = () => run((input) => options.connectWithOAuth!(input), waitingFor(provider!));

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (oauth && !oauth.usingToken) void connect();
    else void run(options.submit, updating ? 'Saving…' : 'Checking the credentials and connecting…');
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

/** A failure as issues: a 422's list, or one issue for a refused credential (beside the credentials) or anything else (above the buttons). */
function issuesOf(failure: ApiFailure): ValidationIssue[] {
  if (Array.isArray(failure.detail)) return failure.detail;
  const loc = failure.error_code === 'credentials_rejected' ? ['body', 'credentials'] : [];
  return [{ loc, msg: failure.detail, type: failure.error_code }];
}

/** Shows each issue beside the field whose `loc` is the longest prefix of its own; answers the fields that got one, in form order. */
function showIssues(fields: Field[], formError: HTMLElement, issues: ValidationIssue[]): Field[] {
  const messages = new Map<Field, string[]>();
  const unplaced: string[] = [];
  for (const issue of issues) {
    const loc = issue.loc.map(String);
    const field = fields.filter((candidate) => candidate.loc.every((key, index) => loc[index] === key)).sort((a, b) => b.loc.length - a.loc.length)[0];
    if (field) messages.set(field, [...(messages.get(field) ?? []), issue.msg]);
    else unplaced.push(issue.msg);
  }
  for (const field of fields) field.showError(messages.get(field)?.join('; '));
  formError.replaceChildren(...unplaced.map((message) => h('p', {}, message)));
  formError.hidden = unplaced.length === 0;
  formError.tabIndex = -1;
  return fields.filter((field) => messages.has(field));
}

function summaryOf(issues: ValidationIssue[], placed: Field[]): string {
  if (placed.length === 0) return issues.map((issue) => issue.msg).join(' ');
  return `Please check ${placed.length === 1 ? 'this field' : `these ${placed.length} fields`}: ${placed.map((field) => field.title).join(', ')}.`;
}

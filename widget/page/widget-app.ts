import { CLOSE_DIALOG, type EndUserActionResult, type SourceRecord } from '../protocol.ts';
import { type ApiAnswer, type ApiFailure, type ConnectorSpecification, EmbeddedApi, type SourceInput, type Template } from './api.ts';
import { reportContentHeight } from './content-height.ts';
import { h } from './dom.ts';
import { existingSourceFailure } from './existing-source.ts';
import type { FormFailure } from './form-issues.ts';
import { homeView } from './home-view.ts';
import { forEndUser, waitingFor } from './oauth-messages.ts';
import { OAuthSources } from './oauth-sources.ts';
import { sourceForm } from './source-form.ts';
import { TokenKeeper } from './token-keeper.ts';

const WAITING = 'Waiting for the app to sign you in…';

/**
 * The widget inside its iframe: gets its token from the host page, lists the sources and the
 * templates its token offers, runs the create and edit forms, and tells the host what happened.
 */
export class WidgetApp {
  private readonly api: EmbeddedApi;
  private readonly oauth: OAuthSources;
  private readonly view = h('div', { class: 'content' });
  private readonly status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  private readonly alert = h('p', { class: 'alert', role: 'alert', 'aria-live': 'assertive' });
  private specifications = new Map<string, ConnectorSpecification>();
  private templates: Template[] = [];

  constructor(
    root: HTMLElement,
    private readonly allowedOrigin: string,
  ) {
    const tokens = new TokenKeeper(allowedOrigin, window.parent, (waiting) => {
      if (waiting) this.announce(WAITING, 'status');
      else if (this.status.textContent === WAITING) this.announce('', 'status');
    });
    this.api = new EmbeddedApi(tokens);
    this.oauth = new OAuthSources(this.api);
    root.replaceChildren(
      h('header', {}, h('h1', {}, 'Connect a data source'), h('button', { type: 'button', class: 'close', onclick: () => this.post(CLOSE_DIALOG) }, 'Close')),
      this.status,
      this.alert,
      this.view,
    );
    reportContentHeight(root, window.parent, allowedOrigin);
    // Keys go to the frame, not to the host's dialog: Escape here closes the widget as it would the dialog.
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !event.defaultPrevented) this.post(CLOSE_DIALOG);
    });
  }

  async start(): Promise<void> {
    const [types, templates] = await Promise.all([this.api.connectorTypes(), this.api.templates()]);
    if (!types.ok) return this.fail(types.failure);
    if (!templates.ok) return this.fail(templates.failure);
    this.specifications = new Map(types.data.data.map((spec) => [spec.connector_type, spec]));
    this.templates = templates.data.data;
    await this.showHome();
  }

  private async showHome(focus = false): Promise<void> {
    const sources = await this.api.sources();
    if (!sources.ok) return this.fail(sources.failure);
    this.show(
      homeView({
        sources: sources.data.data,
        templates: this.templates,
        specifications: this.specifications,
        add: (template) => this.showForm(template, undefined),
        edit: (source, template) => this.showForm(template, source),
        reconnect: (source, template, provider) => void this.reconnect(source, template, provider),
      }),
      focus,
    );
  }

  private showForm(template: Template, source: SourceRecord | undefined): void {
    const specification = this.specifications.get(template.connector_type);
    if (!specification) return this.announce(`This server has no connector of type ${template.connector_type}.`, 'alert');
    this.announce('', 'alert');
    this.announce('', 'status');
    this.show(
      sourceForm({
        specification,
        ...(source ? { source } : {}),
        heading: source ? `Edit ${source.name}` : `Connect ${template.name}`,
        submit: (input) => this.save(template, source, input),
        ...(specification.oauth ? { connectWithOAuth: (input) => this.connectWithOAuth(template, specification.oauth!.provider_name, input) } : {}),
        cancel: () => void this.showHome(true),
        announce: (message, kind) => this.announce(message, kind),
      }),
      true,
    );
  }

  /** Creates or updates the source; tells the host either way. */
  private async save(template: Template, source: SourceRecord | undefined, input: SourceInput): Promise<FormFailure | undefined> {
    const answer = source ? await this.api.updateSource(source.id, input) : await this.api.createSource({ ...input, source_template_id: template.id });
    return this.saved(source ? 'update' : 'create', answer);
  }

  /** A new source connected by consent (from the click: the consent's window opens at once). */
  private connectWithOAuth(template: Template, provider: string, input: SourceInput): Promise<FormFailure | undefined> {
    return this.oauth.create(template, provider, input).then(async (answer) => forEndUser(await this.saved('create', answer), provider));
  }

  /** A source whose grant is gone, connected again by consent (from the click); the outcome is announced on the list. */
  private async reconnect(source: SourceRecord, template: Template, provider: string): Promise<void> {
    this.announce('', 'alert');
    const answer = this.oauth.reconnect(source, template, provider);
    this.announce(waitingFor(provider), 'status');
    const failure = forEndUser(await this.saved('update', await answer, `Reconnected ${source.name}.`), provider);
    if (failure) this.announce(typeof failure.detail === 'string' ? failure.detail : failure.detail.map((issue) => issue.msg).join(' '), 'alert');
  }

  /**
   * Tells the host what the server answered (a consent that granted nothing, status 0, asked it
   * nothing); on success, says so and goes back to the list. Answers the failure to show: a refused
   * duplicate as the source the end user already has.
   */
  private async saved(action: 'create' | 'update', answer: ApiAnswer<SourceRecord>, done?: string): Promise<FormFailure | undefined> {
    if (!answer.ok) {
      const { status, detail, error_code } = answer.failure;
      if (status !== 0) this.post({ type: 'end_user_action_result', message: `source_${action}_error`, error: { detail, error_code } });
      if (error_code !== 'connector_exists') return answer.failure;
      return existingSourceFailure(answer.failure, this.api, this.templates, (source, template) => this.showForm(template, source));
    }
    this.post({ type: 'end_user_action_result', message: action === 'create' ? 'source_created' : 'source_updated', data: answer.data });
    this.announce(done ?? (action === 'create' ? `Connected ${answer.data.name}.` : `Saved ${answer.data.name}.`), 'status');
    await this.showHome(true);
    return undefined;
  }

  private show(view: HTMLElement, focus: boolean): void {
    this.view.replaceChildren(view);
    if (focus) view.querySelector<HTMLElement>('h2')?.focus();
  }

  private fail(failure: ApiFailure): void {
    this.announce(typeof failure.detail === 'string' ? failure.detail : 'The widget could not load.', 'alert');
  }

  private announce(message: string, kind: 'status' | 'alert'): void {
    (kind === 'status' ? this.status : this.alert).textContent = message;
    if (kind === 'alert' && message) this.status.textContent = '';
  }

  private post(message: EndUserActionResult | typeof CLOSE_DIALOG): void {
    window.parent.postMessage(message, this.allowedOrigin);
  }
}

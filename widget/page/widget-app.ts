import { CLOSE_DIALOG, type EndUserActionResult, type SourceRecord } from '../protocol.ts';
import { type ApiFailure, type ConnectorSpecification, EmbeddedApi, type SourceInput, type Template } from './api.ts';
import { h } from './dom.ts';
import { homeView } from './home-view.ts';
import { sourceForm } from './source-form.ts';
import { TokenKeeper } from './token-keeper.ts';

const WAITING = 'Waiting for the app to sign you in…';

/**
 * The widget inside its iframe: gets its token from the host page, lists the sources and the
 * templates its token offers, runs the create and edit forms, and tells the host what happened.
 */
export class WidgetApp {
  private readonly api: EmbeddedApi;
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
    root.replaceChildren(
      h('header', {}, h('h1', {}, 'Connect a data source'), h('button', { type: 'button', class: 'close', onclick: () => this.post(CLOSE_DIALOG) }, 'Close')),
      this.status,
      this.alert,
      this.view,
    );
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
        cancel: () => void this.showHome(true),
        announce: (message, kind) => this.announce(message, kind),
      }),
      true,
    );
  }

  /** Creates or updates the source; tells the host either way. */
  private async save(template: Template, source: SourceRecord | undefined, input: SourceInput): Promise<ApiFailure | undefined> {
    const answer = source ? await this.api.updateSource(source.id, input) : await this.api.createSource({ ...input, source_template_id: template.id });
    if (!answer.ok) {
      const { detail, error_code } = answer.failure;
      this.post({ type: 'end_user_action_result', message: source ? 'source_update_error' : 'source_create_error', error: { detail, error_code } });
      return answer.failure;
    }
    this.post({ type: 'end_user_action_result', message: source ? 'source_updated' : 'source_created', data: answer.data });
    this.announce(source ? `Saved ${answer.data.name}.` : `Connected ${answer.data.name}.`, 'status');
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

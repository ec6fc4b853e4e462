import { iconPath } from '../icon-path.ts';
import type { SourceRecord } from '../protocol.ts';
import type { ConnectorSpecification, Template } from './api.ts';
import { h } from './dom.ts';

export interface HomeViewOptions {
  sources: SourceRecord[];
  templates: Template[];
  specifications: Map<string, ConnectorSpecification>;
  add(template: Template): void;
  /** Editing a source made from one of the offered templates (the only ones shown editable). */
  edit(source: SourceRecord, template: Template): void;
  /** Connecting again, by consent, a source whose OAuth grant is gone. Called from the click: it opens the consent's window. */
  reconnect(source: SourceRecord, template: Template, provider: string): void;
}

/**
 * The start: the workspace's sources (each editable when its template is offered here) and the
 * templates to add one from, with their connector's icon. The end user has one source per connector
 * type (the server refuses a second), so a template of a type they have is not offered.
 */
export function homeView({ sources, templates, specifications, add, edit, reconnect }: HomeViewOptions): HTMLElement {
  const typeName = (type: string) => specifications.get(type)?.display_name ?? type;
  const offered = new Map(templates.map((template) => [template.id, template]));
  const connected = new Set(sources.map((source) => source.connector_type));
  const addable = templates.filter((template) => !connected.has(template.connector_type));
  return h(
    'div',
    { class: 'view' },
    listSection('sources', 'Your sources', 'No source connected yet.', sources, (source) => {
      const template = offered.get(source.source_template_id ?? '');
      const provider = specifications.get(source.connector_type)?.oauth?.provider_name;
      const expired = source.auth_status === 'needs_reauth';
      return [
        h(
          'div',
          { class: 'about' },
          h('span', { class: 'name' }, source.name),
          h('span', { class: 'type' }, typeName(source.connector_type)),
          expired
            ? h(
                'span',
                { class: 'needs-reauth' },
                provider ? `Disconnected: reconnect it with ${provider}.` : 'Disconnected: its access was revoked or expired.',
              )
            : null,
        ),
        expired && template && provider
          ? h(
              'button',
              { type: 'button', class: 'primary', 'aria-label': `Reconnect ${source.name}`, onclick: () => reconnect(source, template, provider) },
              'Reconnect',
            )
          : null,
        editButton(source, template, edit),
      ];
    }),
    listSection(
      'templates',
      'Add a source',
      templates.length > 0 ? 'Everything offered here is connected.' : 'There is nothing to connect here yet.',
      addable,
      (template) => [
        h(
          'button',
          { type: 'button', class: 'template', onclick: () => add(template) },
          // Beside the template's name and type, which say what it is: nothing for a screen reader to add.
          h('img', { class: 'icon', src: iconPath(template.connector_type), alt: '', width: 32, height: 32 }),
          h('span', { class: 'name' }, template.name),
          h('span', { class: 'type' }, typeName(template.connector_type)),
        ),
      ],
    ),
  );
}

/** A titled section listing `items` (class `name` on the list), or saying `empty` when there are none. */
function listSection<T>(name: string, title: string, empty: string, items: T[], render: (item: T) => Array<HTMLElement | null>): HTMLElement {
  return h(
    'section',
    { 'aria-labelledby': `${name}-heading` },
    h('h2', { id: `${name}-heading`, tabindex: -1 }, title),
    items.length === 0 ? h('p', { class: 'empty' }, empty) : h('ul', { class: name }, ...items.map((item) => h('li', {}, ...render(item)))),
  );
}

function editButton(source: SourceRecord, template: Template | undefined, edit: HomeViewOptions['edit']): HTMLElement | null {
  return template ? h('button', { type: 'button', 'aria-label': `Edit ${source.name}`, onclick: () => edit(source, template) }, 'Edit') : null;
}

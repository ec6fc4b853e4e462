import { randomUUID } from 'node:crypto';
import { invalidField } from '../errors.ts';
import type { Store, Template, TemplateKind } from '../stores/types.ts';
import { requireOrganization } from './permissions/request-access.ts';
import { forTokenSubject } from './stale-token.ts';
import type { TagMode, WidgetScope } from './token-claims.ts';

/** Tag filters of templates: `any` matches a template with at least one listed tag, `all` one with every listed tag; no tags, everything. */
function matchesTags(templateTags: string[], selected: string[], mode: TagMode): boolean {
  if (selected.length === 0) return true;
  return mode === 'all' ? selected.every((tag) => templateTags.includes(tag)) : selected.some((tag) => templateTags.includes(tag));
}

export async function createTemplate(
  store: Store,
  organizationId: string,
  kind: TemplateKind,
  input: { name: string; connector_type: string; tags?: string[] },
  knownTypes: string[],
): Promise<Template> {
  // Templates are the organization's, offered in every workspace.
  requireOrganization();
  if (!knownTypes.includes(input.connector_type)) {
    throw invalidField(
      ['body', 'connector_type'],
      `unknown connector type "${input.connector_type}"; allowed: ${knownTypes.join(', ')}`,
      'value_error.unknown_connector_type',
    );
  }
  const template: Template = {
    id: randomUUID(),
    organization_id: organizationId,
    kind,
    name: input.name,
    connector_type: input.connector_type,
    tags: [...new Set(input.tags ?? [])],
    created_at: new Date().toISOString(),
  };
  await forTokenSubject(store.createTemplate(template));
  return template;
}

/** Whether a widget offers the template: its token's tag filter for the template's kind (without a widget, every template). */
export function offersTemplate(widget: WidgetScope | undefined, template: Template): boolean {
  if (!widget) return true;
  return template.kind === 'source'
    ? matchesTags(template.tags, widget.source_template_tags, widget.source_template_tags_mode)
    : matchesTags(template.tags, widget.connection_template_tags, widget.connection_template_tags_mode);
}

/** The organization's templates of a kind, those a widget offers when it asks. */
export async function listTemplates(store: Store, organizationId: string, kind: TemplateKind, widget?: WidgetScope): Promise<Template[]> {
  return (await store.listTemplates(organizationId, kind)).filter((template) => offersTemplate(widget, template));
}

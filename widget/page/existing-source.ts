import type { SourceRecord } from '../protocol.ts';
import type { ApiFailure, EmbeddedApi, Template } from './api.ts';
import type { FormFailure } from './form-issues.ts';

/**
 * A new source refused as a duplicate (409 `connector_exists`: one source per connector type for the
 * widget's end user), as the end user reads it: the source they already have, by its name, and a
 * button to edit it when this widget offers its template. Never the server's ids.
 */
export async function existingSourceFailure(
  failure: ApiFailure,
  api: EmbeddedApi,
  templates: Template[],
  edit: (source: SourceRecord, template: Template) => void,
): Promise<FormFailure> {
  const sources = await api.sources();
  const existing = sources.ok ? sources.data.data.find((source) => source.id === failure.connector_id) : undefined;
  const template = templates.find((candidate) => candidate.id === existing?.source_template_id);
  if (!existing || !template) {
    return { ...failure, detail: 'You already have a source of this kind, and only one is allowed. It cannot be changed from here.' };
  }
  return {
    ...failure,
    detail: `You already have a source of this kind: ${existing.name}. Edit it instead of adding another.`,
    action: { label: `Edit ${existing.name}`, run: () => edit(existing, template) },
  };
}

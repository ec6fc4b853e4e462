import type { PublicStreamProperty } from '../../core/hosted/types.generated.ts';
import type { ValidationIssue } from '../api.ts';
import { FieldIssues } from '../field-issues.ts';
import { html } from '../html.ts';
import { defaultMode, type StreamChoice, type StreamDraft, type SyncMode } from '../stream-draft.ts';

interface Props {
  /** Makes the controls' ids unique on the page (the create form and an editor may both be open). */
  idPrefix: string;
  properties: PublicStreamProperty[];
  draft: StreamDraft;
  onChange: (draft: StreamDraft) => void;
  /** A stream's issues from the last save, by its name; `loc` relative to the stream's entry (`['syncMode']`...). */
  issuesOf: (name: string) => ValidationIssue[];
}

/** The source's streams, each synced or not, in one of its own sync modes, with all its fields or some. */
export function StreamPicker({ idPrefix, properties, draft, onChange, issuesOf }: Props) {
  const set = (name: string, choice: StreamChoice | undefined) => {
    const { [name]: _old, ...rest } = draft;
    onChange(choice ? { ...rest, [name]: choice } : rest);
  };
  return html`<div class="stream-picker">
    ${properties.map((property) => {
      const name = property.streamName;
      const choice = draft[name];
      const id = `${idPrefix}-${name}`;
      const issues = issuesOf(name);
      const names = (part: string) => issues.some((issue) => issue.loc[0] === part);
      const key = property.sourceDefinedPrimaryKey.map((path) => path.join('.')).join(', ');
      const cursor = property.defaultCursorField.join('.');
      return html`<fieldset key=${name} class="stream" aria-describedby=${issues.length > 0 ? `${id}-issues` : undefined}>
        <legend><label class="inline"><input type="checkbox" checked=${choice !== undefined} onChange=${(event: Event) => set(name, (event.target as HTMLInputElement).checked ? { syncMode: defaultMode(property) } : undefined)} /> Sync ${name}</label></legend>
        ${(key || cursor) && html`<p class="hint">${key && `Primary key: ${key}. `}${cursor && `Cursor: ${cursor}.`}</p>`}
        ${
          choice &&
          html`<label for=${`${id}-mode`}>Sync mode of ${name}</label>
          <select id=${`${id}-mode`} value=${choice.syncMode} aria-invalid=${names('syncMode')} onChange=${(event: Event) => set(name, { ...choice, syncMode: (event.target as HTMLSelectElement).value as SyncMode })}>
            ${property.syncModes.map((mode) => html`<option value=${mode}>${mode.replaceAll('_', ' ')}</option>`)}
          </select>
          <fieldset class="fields" aria-invalid=${names('selectedFields')}>
            <legend>Fields of ${name}</legend>
            <label class="inline"><input type="checkbox" checked=${choice.fields === undefined} onChange=${(event: Event) => set(name, { syncMode: choice.syncMode, ...((event.target as HTMLInputElement).checked ? {} : { fields: property.propertyFields.map((path) => path.join('.')) }) })} /> All fields of ${name} (new ones too)</label>
            ${
              choice.fields &&
              property.propertyFields.map((path) => {
                const field = path.join('.');
                const on = choice.fields!.includes(field);
                const toggle = () => set(name, { ...choice, fields: on ? choice.fields!.filter((other) => other !== field) : [...choice.fields!, field] });
                return html`<label class="inline" key=${field}><input type="checkbox" checked=${on} onChange=${toggle} /> ${field}</label>`;
              })
            }
          </fieldset>`
        }
        <${FieldIssues} id=${`${id}-issues`} issues=${issues} />
      </fieldset>`;
    })}
  </div>`;
}

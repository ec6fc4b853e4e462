import { ApiError } from '../api.ts';
import { type ConnectionSettings, SCHEDULE_LOC, STREAMS_LOC } from '../connection-settings.ts';
import { FieldIssues, issuesUnder } from '../field-issues.ts';
import { html } from '../html.ts';
import { ErrorNote, Loading } from '../states.ts';
import { ScheduleFields } from './schedule-fields.ts';
import { StreamPicker } from './stream-picker.ts';

/** A connection's streams (those its source offers) and schedule, each with the issues of the last save that name it. */
export function ConnectionSettingsFields({ idPrefix, settings, error }: { idPrefix: string; settings: ConnectionSettings; error: ApiError | undefined }) {
  const { choice, sent } = settings;
  const streamIssues = issuesUnder(error, STREAMS_LOC);
  const named = (issue: { loc: Array<string | number> }) => sent[Number(issue.loc[STREAMS_LOC.length])];
  const issuesOf = (name: string) =>
    streamIssues.filter((issue) => named(issue) === name).map((issue) => ({ ...issue, loc: issue.loc.slice(STREAMS_LOC.length + 1) }));
  const unnamed = streamIssues.filter((issue) => named(issue) === undefined);
  const relative = issuesUnder(error, SCHEDULE_LOC).map((issue) => ({ ...issue, loc: issue.loc.slice(SCHEDULE_LOC.length) }));
  return html`<fieldset class="streams-choice">
      <legend>Streams</legend>
      <${ErrorNote} error=${choice.error} />
      ${!choice.properties && !choice.error && html`<${Loading} what="the source's streams" />`}
      <${FieldIssues} id=${`${idPrefix}-streams-issues`} issues=${unnamed} />
      ${
        choice.properties &&
        choice.draft &&
        html`<${StreamPicker} idPrefix=${idPrefix} properties=${choice.properties} draft=${choice.draft} onChange=${choice.setDraft} issuesOf=${issuesOf} />`
      }
    </fieldset>
    <${ScheduleFields} idPrefix=${idPrefix} schedule=${settings.schedule} onChange=${settings.setSchedule} issues=${relative} />`;
}

/** What of a failure the fields do not show beside themselves (a message, or issues naming other fields): said at the form's end. */
export function unplacedError(error: ApiError | undefined): ApiError | undefined {
  if (!error || !Array.isArray(error.detail)) return error;
  const placed = [...issuesUnder(error, STREAMS_LOC), ...issuesUnder(error, SCHEDULE_LOC)];
  const rest = error.detail.filter((issue) => !placed.includes(issue));
  return rest.length > 0 ? new ApiError(error.status, rest) : undefined;
}

import type { PublicConnectionSchedule } from '../../core/hosted/types.generated.ts';
import type { ValidationIssue } from '../api.ts';
import { FieldIssues } from '../field-issues.ts';
import { html } from '../html.ts';

interface Props {
  idPrefix: string;
  schedule: PublicConnectionSchedule;
  onChange: (schedule: PublicConnectionSchedule) => void;
  /** The last save's issues under `schedule`, `loc` relative to it (`['cronExpression']`). */
  issues: ValidationIssue[];
}

/** When a connection syncs: manual, or on a cron expression (the API's `scheduleType` and `cronExpression`). */
export function ScheduleFields({ idPrefix, schedule, onChange, issues }: Props) {
  const cron = schedule.scheduleType === 'cron';
  const pick = (scheduleType: PublicConnectionSchedule['scheduleType']) =>
    onChange(scheduleType === 'cron' ? { scheduleType, cronExpression: schedule.cronExpression ?? '' } : { scheduleType });
  const issuesId = `${idPrefix}-schedule-issues`;
  return html`<fieldset class="schedule">
    <legend>Schedule</legend>
    <label class="inline"><input type="radio" name=${`${idPrefix}-schedule`} checked=${!cron} onChange=${() => pick('manual')} /> Manual: run from this console or the API</label>
    <label class="inline"><input type="radio" name=${`${idPrefix}-schedule`} checked=${cron} onChange=${() => pick('cron')} /> On a cron expression</label>
    ${
      cron &&
      html`<label for=${`${idPrefix}-cron`}>Cron expression</label>
      <p class="hint" id=${`${idPrefix}-cron-hint`}>Quartz (seconds first, <code>?</code> allowed) or 5-field cron, then an optional time zone (default UTC): <code>0 0 12 * * ? UTC</code>.</p>
      <input
        id=${`${idPrefix}-cron`}
        value=${schedule.cronExpression ?? ''}
        autocomplete="off"
        aria-invalid=${issues.length > 0}
        aria-describedby=${issues.length > 0 ? `${idPrefix}-cron-hint ${issuesId}` : `${idPrefix}-cron-hint`}
        onInput=${(event: Event) => onChange({ scheduleType: 'cron', cronExpression: (event.target as HTMLInputElement).value })}
      />`
    }
    <${FieldIssues} id=${issuesId} issues=${issues} />
  </fieldset>`;
}

import { clipped, DIVIDER, fields, link, section, type Block, type SlackMessage } from './slack-blocks.ts';
import type { AutoDisableThresholds } from './notification-settings.ts';
import type { NamedLink, SyncSummary } from './sync-summary.ts';

/** The events of a workspace's `notifications` settings (the public API's NotificationsConfig keys). */
export const WORKSPACE_EVENTS = ['failure', 'success', 'connectionUpdate', 'connectionUpdateActionRequired', 'syncDisabled', 'syncDisabledWarning'] as const;
export type WorkspaceEvent = (typeof WORKSPACE_EVENTS)[number];
export type JobEvent = Exclude<WorkspaceEvent, 'connectionUpdate' | 'connectionUpdateActionRequired'>;
export type SchemaEvent = Exclude<WorkspaceEvent, JobEvent>;

/** A workspace webhook's body: Airbyte's, the blocks for Slack, and the summary for a sync's end only. */
export interface WorkspaceMessage extends SlackMessage {
  data?: SyncSummary;
}

const TITLES: Record<JobEvent, string> = {
  failure: 'Sync failure occurred',
  success: 'Sync completed',
  syncDisabled: 'Connection disabled',
  syncDisabledWarning: 'Warning - repeated connection failures',
};

const INTROS: Partial<Record<JobEvent, string>> = {
  syncDisabled: 'Your connection has been repeatedly failing and has been automatically disabled.\n',
  syncDisabledWarning: 'Your connection has been repeatedly failing. Please address any issues to ensure your syncs continue to run.\n',
};

/** Room left in the failure section for the error once its frame is counted (Slack's 3000). */
const ERROR_ROOM = 2900;

/**
 * A job's end, as Airbyte's buildJobCompletedNotification makes it: the title and connection, why a
 * warning or a disabled connection, source, destination and duration, the failure reason, the counts.
 * `data` only for failure and success, as Airbyte sets it only there. `tag`: a test send's marker.
 */
export function jobMessage(event: JobEvent, summary: SyncSummary, thresholds: AutoDisableThresholds, tag?: string): WorkspaceMessage {
  const blocks: Block[] = [section(`${tag ? `[${tag}] ` : ''}${TITLES[event]}: ${link(summary.connection.url, summary.connection.name)}`)];
  const intro = INTROS[event];
  if (intro) blocks.push(section(intro));
  const facts = ['*Source:*', link(summary.source.url, summary.source.name), '*Destination:*', link(summary.destination.url, summary.destination.name)];
  if (summary.startedAt && summary.finishedAt && summary.durationFormatted) facts.push('*Duration:*', summary.durationFormatted);
  blocks.push(fields(...facts));
  if (!summary.success && summary.errorMessage !== null) {
    blocks.push(section(`*Failure reason:*\n\n\`\`\`\n[${summary.errorType}] ${clipped(summary.errorMessage, ERROR_ROOM)}\n\`\`\`\n`));
  }
  blocks.push(
    section(
      `*Sync Summary:*\n${summary.recordsEmitted} record(s) extracted / ${summary.recordsCommitted} record(s) loaded\n` +
        `${summary.bytesEmittedFormatted} extracted / ${summary.bytesCommittedFormatted} loaded\n`,
    ),
  );
  const text = legacyText(event, summary, thresholds);
  return event === 'failure' || event === 'success' ? { text, blocks, data: summary } : { text, blocks };
}

/**
 * Airbyte's plain-text templates (resources/slack/*.txt), a null printed as `null` as String.format
 * does. The auto-disable ones name the thresholds in force: Airbyte's own still quote stale numbers.
 */
function legacyText(event: JobEvent, s: SyncSummary, t: AutoDisableThresholds): string {
  const route = `${s.connection.name} from ${s.source.name} to ${s.destination.name}`;
  const logs = `You can access its logs here: ${s.connection.url}\n\nJob ID: ${s.jobId}`;
  const ids = `The most recent attempted ${s.errorMessage}\n\nWorkspace ID: ${s.workspace.id}\nConnection ID: ${s.connection.id}\n`;
  const disableRule = `failed ${t.failedJobs} times consecutively and has not succeeded in ${t.days} days`;
  switch (event) {
    case 'failure':
      return `Your connection ${route} just failed...\nThis happened with ${s.errorMessage}\n\n${logs}`;
    case 'success':
      return `Your connection ${route} succeeded\nThis was for ${s.errorMessage}\n\n${logs}`;
    case 'syncDisabled':
      return `Your connection from ${s.source.name} to ${s.destination.name} was automatically disabled because it ${disableRule}.\n\nPlease address the failing issues to ensure your syncs continue to run. ${ids}`;
    case 'syncDisabledWarning':
      return (
        `Your connection from ${s.source.name} to ${s.destination.name} is scheduled to be automatically disabled because it failed ${t.warningFailedJobs} times consecutively ` +
        `and has not succeeded in ${t.warningDays} days. Once it has ${disableRule}, the connection will be automatically disabled.\n\n` +
        `Please address the failing issues to ensure your syncs continue to run. ${ids}`
      );
  }
}

/** What changed in a source's streams since a connection last looked. */
export interface SchemaDiff {
  added: string[];
  removed: string[];
  /** Streams still offered whose key, cursor or modes changed, each with what changed. */
  changed: { name: string; what: string[] }[];
}

/**
 * A schema change, as Airbyte's buildSchemaPropagationNotification (non-breaking) and
 * buildSchemaDiffToApplyNotification (breaking: the user must act) make it: no `data`.
 */
export function schemaChangeMessage(
  event: SchemaEvent,
  names: { workspace: NamedLink; connection: NamedLink; source: NamedLink },
  diff: SchemaDiff,
  tag?: string,
): WorkspaceMessage {
  const connection = link(names.connection.url, names.connection.name);
  const header = `${tag ? `[${tag}] ` : ''}${
    event === 'connectionUpdate' ? `The schema of '${connection}' has changed.` : `Plugboard detected schema changes for '${connection}'.`
  }`;
  const blocks: Block[] = [section(header)];
  if (event === 'connectionUpdateActionRequired') {
    blocks.push(
      section(`The upstream schema of '${names.connection.name}' has changed. Please review and approve the changes to reflect them in your connection.`),
    );
  }
  blocks.push(fields('*Workspace*', link(names.workspace.url, names.workspace.name), '*Source*', link(names.source.url, names.source.name)));
  blocks.push(DIVIDER, section(diffSummary(diff)));
  return { text: header, blocks };
}

/** Airbyte's summary lines: ` • Streams (+a/-b/~c)`, then one line per stream. */
export function diffSummary(diff: SchemaDiff): string {
  const lines = [` • Streams (+${diff.added.length}/-${diff.removed.length}/~${diff.changed.length})`];
  for (const name of diff.added) lines.push(`   ＋ ${name}`);
  for (const name of diff.removed) lines.push(`   － ${name}`);
  for (const { name, what } of diff.changed) lines.push(`   ～ ${name} (${what.join(', ')})`);
  return lines.join('\n');
}

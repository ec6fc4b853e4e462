import type { EmbeddedSource } from './embedded-messages.ts';
import type { Links } from './links.ts';
import type { AutoDisableThresholds } from './notification-settings.ts';
import { syncSummary } from './sync-summary.ts';
import { jobMessage, schemaChangeMessage, type WorkspaceEvent, type WorkspaceMessage } from './workspace-messages.ts';

/** The marker of a test send's title, as Airbyte's NotificationsHandler.tryNotification puts it. */
export const TEST_TAG = 'THIS IS A TEST NOTIFICATION';

/** Airbyte's sample failure reason. */
const TEST_ERROR = 'This is test notification. Everything is fine! This is where the error message will show up when an actual sync fails.';

const SAMPLE_ID = '00000000-0000-0000-0000-000000000000';

/** A sample of the event's message on fixed names (Workspace, Connection, Source, Destination), as Airbyte's test sends are. */
export function testWorkspaceMessage(event: WorkspaceEvent, links: Links, thresholds: AutoDisableThresholds, now: number): WorkspaceMessage {
  const names = {
    workspace: links.workspace(SAMPLE_ID, 'Workspace'),
    connection: links.connection({ id: SAMPLE_ID, name: 'Connection', workspaceId: SAMPLE_ID }),
    source: links.actor('source', SAMPLE_ID, SAMPLE_ID, 'Source'),
    destination: links.actor('destination', SAMPLE_ID, SAMPLE_ID, 'Destination'),
  };
  if (event === 'connectionUpdate' || event === 'connectionUpdateActionRequired') {
    return schemaChangeMessage(event, names, { added: ['new_stream'], removed: [], changed: [{ name: 'users', what: ['primary key'] }] }, TEST_TAG);
  }
  const success = event === 'success';
  const summary = syncSummary(names, {
    jobId: 0,
    success,
    startedAt: now - 3_600_000,
    finishedAt: now,
    rows: 45,
    bytes: 1000,
    ...(success ? {} : { error: { message: TEST_ERROR, type: 'transient_error', origin: 'source' } }),
  });
  return jobMessage(event, summary, thresholds, TEST_TAG);
}

/** The sample source of an organization webhook's test send. */
export function testEmbeddedSource(organizationId: string): EmbeddedSource {
  return {
    id: SAMPLE_ID,
    name: 'Source',
    connector_type: 'chat',
    organization_id: organizationId,
    workspace_id: SAMPLE_ID,
    external_user_id: 'user',
    source_template_id: null,
  };
}

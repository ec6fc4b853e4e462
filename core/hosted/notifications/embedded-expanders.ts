import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { Store } from '../../stores/types.ts';
import { credentialKeys } from '../oauth/oauth-tokens.ts';
import type { Outgoing } from './deliveries.ts';
import { embeddedMessage, embeddedSourceOf, type EmbeddedEvent, type EmbeddedSource } from './embedded-messages.ts';
import { type Expander, type ExpansionStep, NOTHING } from './event-expansion.ts';
import type { EventKind } from './notification-events.ts';
import type { OrganizationWebhooks } from './organization-webhooks.ts';
import { webhookBody } from './webhook-channels.ts';

export interface EmbeddedExpanderDependencies {
  db: SqlDriver;
  store: Store;
  webhooks: OrganizationWebhooks;
}

type EmbeddedKind = Exclude<EventKind, 'sync_job_ended'>;

/** What a stored connector's credential key starts with (`connector:<id>`). */
const CONNECTOR_KEY = credentialKeys.connector('');

/** The delivery of an embedded event to its organization's webhook; none when the organization has none. */
export async function organizationOutgoing(
  webhooks: OrganizationWebhooks,
  type: EmbeddedEvent,
  source: EmbeddedSource,
  at: number,
  error?: string,
  tag?: string,
) {
  const url = await webhooks.url(source.organization_id);
  if (!url) return [];
  const outgoing: Outgoing = {
    owner: { kind: 'organization', id: source.organization_id },
    organizationId: source.organization_id,
    eventType: type,
    url,
    body: webhookBody(url, embeddedMessage(type, source, at, error, tag)),
  };
  return [outgoing];
}

/**
 * The organization webhook's events. A connector's life is told as it happened (the event carries
 * what it was, a deleted one included). A replication's outcome is told only when it differs from
 * the last told (ready after a first run or a failure, failed after a success), not every hour.
 */
export function embeddedExpanders(deps: EmbeddedExpanderDependencies): Record<EmbeddedKind, Expander> {
  const tell = async (type: EmbeddedEvent, source: EmbeddedSource, at: number, error?: string): Promise<ExpansionStep> => {
    const outgoing = await organizationOutgoing(deps.webhooks, type, source, at, error);
    return async () => outgoing;
  };
  const lifecycle =
    (type: EmbeddedEvent): Expander =>
    (event) =>
      tell(type, (event.subject as { source: EmbeddedSource }).source, event.createdAt);
  return {
    source_created: lifecycle('source.created'),
    source_updated: lifecycle('source.updated'),
    async source_deleted(event) {
      const told = await lifecycle('source.deleted')(event);
      const { id } = (event.subject as { source: EmbeddedSource }).source;
      return async (tx) => {
        await tx.run('DELETE FROM notification_replication_states WHERE connector_id = ?', [id]);
        return told(tx);
      };
    },
    async replication_ended(event) {
      const { connectorId, error } = event.subject as { connectorId: string; error?: string };
      const connector = await deps.store.getConnector(connectorId);
      if (!connector) return NOTHING;
      const state = error === undefined ? 'ready' : 'failed';
      const told = await deps.db.get<{ state: string }>('SELECT state FROM notification_replication_states WHERE connector_id = ?', [connectorId]);
      if (told?.state === state) return NOTHING;
      const step = await tell(error === undefined ? 'replication.ready' : 'replication.failed', embeddedSourceOf(connector), event.createdAt, error);
      return async (tx) => {
        await keepTold(tx, connectorId, state, event.createdAt);
        return step(tx);
      };
    },
    async credential_expired(event) {
      const key = (event.subject as { credentialKey: string }).credentialKey;
      const connectorId = key.startsWith(CONNECTOR_KEY) ? key.slice(CONNECTOR_KEY.length) : undefined;
      const connector = connectorId && (await deps.store.getConnector(connectorId));
      // A public API source's grant has no embedded event: Airbyte tells its users by other means.
      return connector ? tell('source.needs_reauth', embeddedSourceOf(connector), event.createdAt) : NOTHING;
    },
  };
}

async function keepTold(tx: SqlDriver, connectorId: string, state: string, at: number): Promise<void> {
  await tx.run(
    `INSERT INTO notification_replication_states (connector_id, state, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (connector_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
    [connectorId, state, at],
  );
}

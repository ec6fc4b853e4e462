import type { StoredConnector } from '../../stores/types.ts';
import { escapeMrkdwn, fields, section, type SlackMessage } from './slack-blocks.ts';

/** The events of an organization's webhook: its embedded sources' lives. */
export const EMBEDDED_EVENTS = [
  'source.created',
  'source.updated',
  'source.deleted',
  'source.needs_reauth',
  'replication.ready',
  'replication.failed',
  'webhook.test',
] as const;
export type EmbeddedEvent = (typeof EMBEDDED_EVENTS)[number];

/** A connector as the organization's webhook names it: never its credentials. */
export interface EmbeddedSource {
  id: string;
  name: string;
  connector_type: string;
  organization_id: string;
  workspace_id: string;
  external_user_id: string;
  source_template_id: string | null;
}

export function embeddedSourceOf(connector: StoredConnector): EmbeddedSource {
  return {
    id: connector.id,
    name: connector.name,
    connector_type: connector.connector_type,
    organization_id: connector.organization_id,
    workspace_id: connector.workspace_id,
    external_user_id: connector.external_user_id,
    source_template_id: connector.source_template_id,
  };
}

/**
 * An embedded event's body: Standard Webhooks' recommended `{type, timestamp, data}`, with the text
 * and blocks beside it as every Plugboard webhook has them, so a Slack URL shows it too.
 */
export interface EmbeddedMessage extends SlackMessage {
  type: EmbeddedEvent;
  timestamp: string;
  data: { source: EmbeddedSource; error?: string };
}

const SAYS: Record<EmbeddedEvent, string> = {
  'source.created': 'was created',
  'source.updated': 'was updated',
  'source.deleted': 'was deleted',
  'source.needs_reauth': 'must be connected again: its OAuth grant is gone (revoked or expired)',
  'replication.ready': 'is replicated: its records can be searched',
  'replication.failed': 'failed to replicate',
  'webhook.test': 'is a sample: this is a test of the organization webhook',
};

/** `tag`: a test send's marker. */
export function embeddedMessage(type: EmbeddedEvent, source: EmbeddedSource, at: number, error?: string, tag?: string): EmbeddedMessage {
  const text = `${tag ? `[${tag}] ` : ''}Source "${source.name}" (${source.connector_type}) ${SAYS[type]}.`;
  const blocks = [
    section(escapeMrkdwn(text)),
    fields('*Source ID*', source.id, '*Workspace*', source.workspace_id, '*External user*', escapeMrkdwn(source.external_user_id)),
    ...(error === undefined ? [] : [section(`*Error:*\n\`\`\`\n${error}\n\`\`\``)]),
  ];
  return { type, timestamp: new Date(at).toISOString(), data: { source, ...(error === undefined ? {} : { error }) }, text, blocks };
}

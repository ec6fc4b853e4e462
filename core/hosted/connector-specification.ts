import type { CompiledConnector } from '../plugins/compiled-connector.ts';
import { AUTH_KINDS, type AuthKind, CREDENTIAL_FIELD, type JsonSchema } from '../sdk/index.ts';

/** What a form needs to create a connector of a type: its name, its credential kinds and its replication settings (JSON Schemas), and its OAuth flow if any. */
export interface ConnectorSpecification {
  connector_type: string;
  display_name: string;
  /** One `oneOf` branch per credential kind the type accepts, each titled for a label. */
  credentials: JsonSchema;
  /** The type's replication-config schema, or null when it takes none. */
  replication_config: JsonSchema | null;
  /** Its OAuth flow, named for a "Connect with <provider_name>" button; null when the connector declares none. */
  oauth: { provider_name: string } | null;
}

const CREDENTIAL_KINDS: Record<AuthKind, { title: string; field: string; description: string }> = {
  oauth: {
    title: 'OAuth',
    field: 'Access token',
    description: 'The OAuth access token the provider issued when you authorised this app.',
  },
  token: {
    title: 'Personal access token',
    field: 'Token',
    description: "A token you created in the provider's settings (for a bot or an integration).",
  },
};

export function connectorSpecification(connector: CompiledConnector): ConnectorSpecification {
  const { definition } = connector;
  const kinds = AUTH_KINDS.filter((kind) => definition.auth[kind] !== undefined);
  return {
    connector_type: definition.type,
    display_name: definition.displayName,
    credentials: {
      title: 'Credentials',
      oneOf: kinds.map((kind) => {
        const { title, field, description } = CREDENTIAL_KINDS[kind];
        const name = CREDENTIAL_FIELD[kind];
        return {
          title,
          type: 'object',
          properties: { [name]: { type: 'string', minLength: 1, title: field, description, writeOnly: true } },
          required: [name],
          additionalProperties: false,
        };
      }),
    },
    replication_config: definition.replicationConfig ?? null,
    oauth: definition.auth.oauth2 ? { provider_name: definition.auth.oauth2.providerName } : null,
  };
}

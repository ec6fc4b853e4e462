import type { Ajv, ValidateFunction } from 'ajv';
import type { CompiledConnector } from '../../plugins/compiled-connector.ts';
import { authHeadersFor, REFRESH_FIELDS } from '../../runtime/credentials.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { createAjv } from '../../schema/ajv.ts';
import type { Credentials, JsonSchema, OAuth2Settings, OAuthCredentials } from '../../sdk/index.ts';
import { SERVER_SCHEMAS } from '../types.generated.ts';
import { type ActorKind, type ActorKinds, type Endpoint, type Loc, unloadedKind, validateWith } from './actor-kind.ts';
import { isObject, secretFieldsOf } from './configuration-secrets.ts';
import { nameBasedUuid } from './definition-ids.ts';
import type { UpstreamCheck } from './upstream-check.ts';

/** What every source type says: which runtime connector type reads it, and its OAuth flow when it has one. */
interface SourceKindBase extends ActorKind {
  connectorType: string;
  /** The connector's OAuth flow (its `auth.oauth2`), when it declares one: sources of the kind can then be connected by consent. */
  oauth2?: OAuth2Settings;
  /** The configuration with the credentials a consent granted in this kind's own shape, its other fields kept (kinds with `oauth2`). */
  oauthConfiguration?(configuration: Record<string, unknown>, credentials: OAuthCredentials): Record<string, unknown>;
}

/** A Plugboard connector's source type: its configuration gives the connector's credentials and settings. */
export interface ConnectorSourceKind extends SourceKindBase {
  /** The connector's credentials, from a valid configuration. */
  credentialsOf(configuration: Record<string, unknown>): Credentials;
}

/** An Airbyte manifest's source type (a published declarative definition): the manifest reads the configuration itself. */
export interface ManifestSourceKind extends SourceKindBase {
  /** What the manifest's templates read as `config`, from a valid configuration: all of it but `sourceType`. */
  manifestConfigOf(configuration: Record<string, unknown>): Record<string, unknown>;
  /** A manifest has no credentials apart from its configuration: throws, so nothing reads one as a connector's credentials. */
  credentialsOf(configuration: Record<string, unknown>): never;
}

export type SourceKind = ConnectorSourceKind | ManifestSourceKind;

/** Source kinds beyond the loaded connector types (published declarative definitions), found by name or definition id. */
export interface CustomSourceKinds {
  byName(name: string): SourceKind | undefined;
  byDefinitionId(definitionId: string): SourceKind | undefined;
}

/** Airbyte's names for the systems Plugboard's built-in connectors read, in the official configuration shapes. */
interface AirbyteSource {
  connectorType: string;
  definitionId: string;
  schema: JsonSchema;
  credentialsOf(configuration: Record<string, unknown>): Credentials;
  oauthConfiguration(configuration: Record<string, unknown>, credentials: OAuthCredentials): Record<string, unknown>;
}

/** What an OAuth credential carries beside its access token, so the runtime can refresh it. */
/** The OAuth credentials in an official shape's `credentials`: the access token and whatever of its refresh grant is there. */
function oauthCredentialsIn(credentials: Record<string, unknown>): OAuthCredentials {
  const present = REFRESH_FIELDS.filter((field) => credentials[field] !== undefined).map((field) => [field, credentials[field]]);
  return { access_token: credentials.access_token as string, ...Object.fromEntries(present) };
}

/** The granted credentials' fields an official shape names (no token URL: the deployment's applies, as for its API). */
function grantIn(credentials: OAuthCredentials) {
  return {
    client_id: credentials.client_id,
    client_secret: credentials.client_secret,
    access_token: credentials.access_token,
    ...(credentials.refresh_token === undefined ? {} : { refresh_token: credentials.refresh_token }),
    ...(credentials.expires_at === undefined ? {} : { expires_at: credentials.expires_at }),
  };
}

const AIRBYTE_SOURCES: Record<string, AirbyteSource> = {
  slack: {
    connectorType: 'chat',
    definitionId: 'c2281cee-86f9-4a86-bb48-d23286b4c7bd',
    schema: SERVER_SCHEMAS['source-slack.json'],
    credentialsOf(configuration) {
      const credentials = configuration.credentials as { option_title: string; api_token?: string };
      return credentials.option_title === 'API Token Credentials' ? { token: credentials.api_token! } : oauthCredentialsIn(credentials);
    },
    oauthConfiguration: (configuration, credentials) => ({
      ...configuration,
      credentials: { option_title: 'Default OAuth2.0 authorization', ...grantIn(credentials) },
    }),
  },
  'google-drive': {
    connectorType: 'file-storage',
    definitionId: '9f8dda77-1048-4368-815b-269bf54ee9b8',
    schema: SERVER_SCHEMAS['source-google-drive.json'],
    // The extension field `access_token` is the one it reads with; an OAuth client's refresh token renews it.
    credentialsOf(configuration) {
      const credentials = configuration.credentials as { auth_type: string; access_token: string };
      return credentials.auth_type === 'Client' ? oauthCredentialsIn(credentials) : { access_token: credentials.access_token };
    },
    oauthConfiguration: (configuration, credentials) => ({ ...configuration, credentials: { auth_type: 'Client', ...grantIn(credentials) } }),
  },
};

/** Plugboard's own shapes of its built-in types; a plugin's is made from its definition (plugboardShape). */
const PLUGBOARD_SHAPES: Record<string, JsonSchema> = {
  chat: SERVER_SCHEMAS['source-chat.json'],
  'file-storage': SERVER_SCHEMAS['source-file-storage.json'],
};

/**
 * The source types the public API takes: every connector type loaded (`chat`, `file-storage`, a
 * plugin's), in Plugboard's shape `{sourceType, credentials, ...replication settings}`, and Airbyte's
 * `slack` and `google-drive` in their official shapes. A plugin named like one of Airbyte's wins.
 */
export class SourceKinds implements ActorKinds<SourceKind> {
  readonly typeField = 'sourceType';
  private readonly kinds = new Map<string, SourceKind>();

  constructor(
    runtime: Runtime,
    check: UpstreamCheck,
    /** Consulted for names and ids the loaded types do not have; never listed in `names()` (they are one workspace's each). */
    private readonly custom?: CustomSourceKinds,
  ) {
    const ajv = createAjv();
    const types = runtime.connectorTypes();
    for (const [name, source] of Object.entries(AIRBYTE_SOURCES)) {
      if (types.includes(source.connectorType)) {
        this.kinds.set(name, connectorSourceKind(ajv, check, runtime.plugin(source.connectorType), { name, ...source }));
      }
    }
    for (const type of types) {
      const plugin = runtime.plugin(type);
      const schema = PLUGBOARD_SHAPES[type] ?? plugboardShape(plugin);
      this.kinds.set(
        type,
        connectorSourceKind(ajv, check, plugin, { name: type, definitionId: nameBasedUuid(`source/${type}`), schema, credentialsOf: plugboardCredentials }),
      );
    }
  }

  byName(name: string): SourceKind | undefined {
    return this.kinds.get(name) ?? this.custom?.byName(name);
  }

  byDefinitionId(definitionId: string): SourceKind | undefined {
    return [...this.kinds.values()].find((kind) => kind.definitionId === definitionId.toLowerCase()) ?? this.custom?.byDefinitionId(definitionId);
  }

  names(): string[] {
    return [...this.kinds.keys()];
  }

  unloaded(name: string): ConnectorSourceKind {
    const kind = unloadedKind(name, nameBasedUuid(`source/${name}`), secretFieldsOf(undefined));
    return { ...kind, connectorType: name, credentialsOf: () => kind.validate({}, []) as never };
  }
}

/**
 * A source kind read with `plugin`: its configuration valid against `schema`, its credentials against
 * the header rules and the upstream. When the connector declares an OAuth flow, consents give its
 * credentials (`oauthConfiguration`: Plugboard's shape by default, the credentials object as it is).
 * A token URL in the credentials is where the refresh grant goes: the secrets are bound to it.
 */
export function connectorSourceKind(
  ajv: Ajv,
  check: UpstreamCheck,
  plugin: CompiledConnector,
  shape: Pick<ConnectorSourceKind, 'name' | 'definitionId' | 'credentialsOf' | 'oauthConfiguration'> & { schema: JsonSchema },
): ConnectorSourceKind {
  const { name, definitionId, schema, credentialsOf } = shape;
  const validate: ValidateFunction = ajv.compile(schema);
  const oauth2 = plugin.definition.auth.oauth2;
  return {
    name,
    connectorType: plugin.type,
    definitionId,
    secrets: secretFieldsOf(schema),
    credentialsOf,
    endpoint: tokenUrlEndpoint,
    ...(oauth2 ? { oauth2, oauthConfiguration: shape.oauthConfiguration ?? plugboardOAuthConfiguration } : {}),
    validate(configuration: Record<string, unknown>, loc: Loc) {
      validateWith(validate, configuration, loc);
      // The header rules (printable ASCII, a kind the connector takes) hold whatever the shape.
      authHeadersFor(plugin.definition, credentialsOf(configuration), [...loc.map(String), 'credentials']);
    },
    async check(configuration, actor) {
      await check(plugin.type, actor.id, credentialsOf(configuration));
    },
  };
}

/** Plugboard's shapes carry the connector's own credentials (validated: the shape has the object, the header rules checked it). */
export function plugboardCredentials(configuration: Record<string, unknown>): Credentials {
  return configuration.credentials as Credentials;
}

/** Plugboard's shapes take a consent's credentials object as it is. */
function plugboardOAuthConfiguration(configuration: Record<string, unknown>, credentials: OAuthCredentials): Record<string, unknown> {
  return { ...configuration, credentials };
}

/**
 * Where a configuration's refresh grant goes when its credentials name a token URL: the client
 * secret and refresh token go there, so a change of it keeps them until they are given again. None
 * named: the connector's (or the deployment's) own, nothing to bind.
 */
export function tokenUrlEndpoint(configuration: Record<string, unknown>): Endpoint {
  const credentials = configuration.credentials;
  const tokenUrl = isObject(credentials) ? credentials.token_url : undefined;
  return tokenUrl === undefined ? {} : { 'credentials.token_url': tokenUrl };
}

/**
 * A plugin type's configuration shape: its credentials (checked by the header rules) and the fields
 * of its replication config, each optional. `sourceType`: the name sources give the type.
 */
export function plugboardShape(plugin: CompiledConnector, sourceType = plugin.type): JsonSchema {
  const settings = (plugin.definition.replicationConfig?.properties ?? {}) as Record<string, JsonSchema>;
  return {
    type: 'object',
    properties: { sourceType: { type: 'string', const: sourceType }, credentials: { type: 'object' }, ...settings },
    required: ['sourceType', 'credentials'],
    additionalProperties: false,
  };
}

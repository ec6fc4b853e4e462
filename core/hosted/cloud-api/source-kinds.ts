import type { Ajv, ValidateFunction } from 'ajv';
import type { CompiledConnector } from '../../plugins/compiled-connector.ts';
import { authHeadersFor } from '../../runtime/credentials.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { createAjv } from '../../schema/ajv.ts';
import type { Credentials, JsonSchema } from '../../sdk/index.ts';
import { SERVER_SCHEMAS } from '../types.generated.ts';
import { type ActorKind, type ActorKinds, type Loc, unloadedKind, validateWith } from './actor-kind.ts';
import { secretFieldsOf } from './configuration-secrets.ts';
import { nameBasedUuid } from './definition-ids.ts';
import type { UpstreamCheck } from './upstream-check.ts';

/** A source type: which Plugboard connector reads it, and how its configuration gives that connector's credentials and settings. */
export interface SourceKind extends ActorKind {
  connectorType: string;
  /** The connector's credentials, from a valid configuration. */
  credentialsOf(configuration: Record<string, unknown>): Credentials;
}

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
}

const AIRBYTE_SOURCES: Record<string, AirbyteSource> = {
  slack: {
    connectorType: 'chat',
    definitionId: 'c2281cee-86f9-4a86-bb48-d23286b4c7bd',
    schema: SERVER_SCHEMAS['source-slack.json'],
    credentialsOf(configuration) {
      const credentials = configuration.credentials as { option_title: string; api_token?: string; access_token?: string };
      return credentials.option_title === 'API Token Credentials' ? { token: credentials.api_token! } : { access_token: credentials.access_token! };
    },
  },
  'google-drive': {
    connectorType: 'file-storage',
    definitionId: '9f8dda77-1048-4368-815b-269bf54ee9b8',
    schema: SERVER_SCHEMAS['source-google-drive.json'],
    // Plugboard refreshes no Google token: the extension field is the one it reads with.
    credentialsOf: (configuration) => ({ access_token: (configuration.credentials as { access_token: string }).access_token }),
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
    const kind = (name: string, plugin: CompiledConnector, definitionId: string, schema: JsonSchema, credentialsOf: SourceKind['credentialsOf']) =>
      connectorSourceKind(ajv, check, plugin, { name, definitionId, schema, credentialsOf });
    for (const [name, source] of Object.entries(AIRBYTE_SOURCES)) {
      if (types.includes(source.connectorType)) {
        this.kinds.set(name, kind(name, runtime.plugin(source.connectorType), source.definitionId, source.schema, source.credentialsOf));
      }
    }
    for (const type of types) {
      const plugin = runtime.plugin(type);
      const schema = PLUGBOARD_SHAPES[type] ?? plugboardShape(plugin);
      this.kinds.set(type, kind(type, plugin, nameBasedUuid(`source/${type}`), schema, plugboardCredentials));
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

  unloaded(name: string): SourceKind {
    const kind = unloadedKind(name, nameBasedUuid(`source/${name}`), secretFieldsOf(undefined));
    return { ...kind, connectorType: name, credentialsOf: () => kind.validate({}, []) as never };
  }
}

/** A source kind read with `plugin`: its configuration valid against `schema`, its credentials against the header rules and the upstream. */
export function connectorSourceKind(
  ajv: Ajv,
  check: UpstreamCheck,
  plugin: CompiledConnector,
  shape: Pick<SourceKind, 'name' | 'definitionId' | 'credentialsOf'> & { schema: JsonSchema },
): SourceKind {
  const { name, definitionId, schema, credentialsOf } = shape;
  const validate: ValidateFunction = ajv.compile(schema);
  return {
    name,
    connectorType: plugin.type,
    definitionId,
    secrets: secretFieldsOf(schema),
    credentialsOf,
    validate(configuration: Record<string, unknown>, loc: Loc) {
      validateWith(validate, configuration, loc);
      // The header rules (printable ASCII, a kind the connector takes) hold whatever the shape.
      authHeadersFor(plugin.definition, credentialsOf(configuration), [...loc.map(String), 'credentials']);
    },
    check: (configuration: Record<string, unknown>, actor: { id: string }) => check(plugin.type, actor.id, credentialsOf(configuration)),
  };
}

/** Plugboard's shapes carry the connector's own credentials (validated: the shape has the object, the header rules checked it). */
export function plugboardCredentials(configuration: Record<string, unknown>): Credentials {
  return configuration.credentials as Credentials;
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

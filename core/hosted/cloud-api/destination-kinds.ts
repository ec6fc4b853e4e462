import type { ValidateFunction } from 'ajv';
import { BadRequestError, invalidField, PlugboardError } from '../../errors.ts';
import { createAjv } from '../../schema/ajv.ts';
import type { JsonSchema } from '../../sdk/index.ts';
import { createDestination, workspaceDataDir } from '../sync/destinations/create-destination.ts';
import type { NetworkGuard } from '../sync/destinations/network-guard.ts';
import { DESTINATION_TYPES, type Destination, type DestinationType } from '../sync/destinations/destination.ts';
import { readPostgresSettings } from '../sync/destinations/postgres-connection.ts';
import { SERVER_SCHEMAS } from '../types.generated.ts';
import { type ActorKind, type ActorKinds, type Endpoint, type Loc, unloadedKind, validateWith } from './actor-kind.ts';
import { secretFieldsOf } from './configuration-secrets.ts';
import { nameBasedUuid } from './definition-ids.ts';

export interface DestinationKind extends ActorKind {
  destinationType: DestinationType;
}

/** Airbyte's definition ids of the same destinations, so a client that names them by id finds them. */
const DEFINITION_IDS: Record<DestinationType, string> = {
  sqlite: 'b76be0a6-27dc-4560-95f6-2623da0bd7b6',
  postgres: '25c5221d-dce2-4163-ade9-739ef790f503',
  duckdb: '94bd199c-2ff0-4aa2-b98e-17f0acb72610',
};

/** The fields that say where a destination's secrets go: changing one takes the secrets given again (see secret-binding.ts). */
const ENDPOINTS: Record<DestinationType, (configuration: Record<string, unknown>) => Endpoint> = {
  sqlite: () => ({}),
  // As connected to: the default port is 5432 however it is spelt, and a weaker ssl_mode is another endpoint too.
  postgres: (configuration) => {
    const { host, port, database, sslMode } = readPostgresSettings(configuration);
    return { host, port, database, ssl_mode: sslMode };
  },
  duckdb: (configuration) => ({ destination_path: configuration.destination_path ?? null }),
};

const SCHEMAS: Record<DestinationType, JsonSchema> = {
  sqlite: SERVER_SCHEMAS['destination-sqlite.json'],
  postgres: SERVER_SCHEMAS['destination-postgres.json'],
  duckdb: SERVER_SCHEMAS['destination-duckdb.json'],
};

/**
 * The destination types the public API takes, their configurations in Airbyte's shapes: checked
 * against the schema, then by the destination itself (a path it refuses is a 400 at once; the check
 * connects and writes a table, a failure a 400 too). A SQLite destination given no path gets its own
 * file under the data directory.
 */
export class DestinationKinds implements ActorKinds<DestinationKind> {
  readonly typeField = 'destinationType';
  private readonly kinds: Map<string, DestinationKind>;

  constructor(
    private readonly dataDir: string,
    private readonly guard?: NetworkGuard,
  ) {
    const ajv = createAjv();
    // The official shapes mark secrets `airbyte_secret`: a keyword of theirs, an annotation here (secretFieldsOf reads it).
    if (!ajv.getKeyword('airbyte_secret')) ajv.addKeyword('airbyte_secret');
    this.kinds = new Map(DESTINATION_TYPES.map((type) => [type, this.kindOf(type, ajv.compile(SCHEMAS[type]))]));
  }

  byName(name: string): DestinationKind | undefined {
    return this.kinds.get(name);
  }

  byDefinitionId(definitionId: string): DestinationKind | undefined {
    return [...this.kinds.values()].find((kind) => kind.definitionId === definitionId.toLowerCase());
  }

  names(): string[] {
    return [...this.kinds.keys()];
  }

  unloaded(name: string): DestinationKind {
    return { ...unloadedKind(name, nameBasedUuid(`destination/${name}`), secretFieldsOf(undefined)), destinationType: name as DestinationType };
  }

  private kindOf(type: DestinationType, validate: ValidateFunction): DestinationKind {
    // A workspace's file destinations live in its own folder: two organizations naming the same path never share a file.
    const open = (configuration: Record<string, unknown>, loc: Loc, workspaceId?: string): Destination => {
      try {
        const dataDir = workspaceId === undefined ? this.dataDir : workspaceDataDir(this.dataDir, workspaceId);
        return createDestination(type, configuration, { dataDir, guard: this.guard });
      } catch (error) {
        throw invalidField(loc, (error as Error).message, 'value_error.destination');
      }
    };
    return {
      name: type,
      destinationType: type,
      definitionId: DEFINITION_IDS[type],
      secrets: secretFieldsOf(SCHEMAS[type]),
      endpoint: ENDPOINTS[type],
      ...(type === 'sqlite' ? { withDefaults: (configuration, id) => ({ destination_path: `/local/${id}.sqlite`, ...configuration }) } : {}),
      validate(configuration, loc) {
        validateWith(validate, configuration, loc);
        // Opening refuses what the destination cannot work with (a path outside the data directory); it connects to nothing.
        open(configuration, loc)
          .close()
          .catch(() => undefined);
      },
      async check(configuration, actor) {
        const destination = open(configuration, ['body', 'configuration'], actor.workspaceId);
        try {
          await destination.check();
        } catch (error) {
          // Refused by the egress policy: answered as such, naming the field and the rule.
          if (error instanceof PlugboardError && error.error_code === 'egress_refused') throw error;
          throw new BadRequestError(`The ${type} destination ${actor.id} cannot be used: ${(error as Error).message}`, 'destination_check_failed');
        } finally {
          await destination.close();
        }
      },
    };
  }
}

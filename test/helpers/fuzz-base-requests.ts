import type { CompiledConnector } from '../../core/plugins/compiled-connector.ts';
import type { SeededRandom } from '../../testing/seeded-random.ts';
import type { BaseRequest, Operation } from './fuzz-request.ts';
import { sampleSchema, type Dictionary, type Json } from './schema-sample.ts';

/** What the fixture holds that a valid request names: values by property or path parameter name, and a connector of each type. */
export interface FuzzState {
  dictionary: Dictionary;
  /** Connector id per connector type. */
  connectors: Record<string, string>;
  /** Valid credentials per connector type. */
  credentials: Record<string, Json>;
  plugins: CompiledConnector[];
}

/** How many different valid bodies an ordinary operation starts from. */
const BASE_REQUESTS_PER_OPERATION = 4;

/**
 * Valid requests for `operation`, so one mutation reaches past validation into the handler. An
 * execute gets one per action of each connector type, on that type's connector, with params sampled
 * from the action's own schema.
 */
export function baseRequestsFor(operation: Operation, state: FuzzState, random: SeededRandom): BaseRequest[] {
  if (operation.path.endsWith('/execute')) {
    return state.plugins.flatMap((plugin) =>
      plugin.definition.actions.map((action) => ({
        params: { connector_id: state.connectors[plugin.type]! },
        body: { entity: action.entity, action: action.action, params: sampleSchema(action.params as Record<string, unknown>, random, state.dictionary) },
      })),
    );
  }
  return Array.from({ length: BASE_REQUESTS_PER_OPERATION }, () => ({
    params: Object.fromEntries(operation.pathParams.map((name) => [name, String(random.pick(state.dictionary[name] ?? ['x']))])),
    ...(operation.bodySchema ? { body: withMatchingCredentials(sampleSchema(operation.bodySchema, random, state.dictionary), state) } : {}),
  }));
}

/** Credentials fit one connector type: the body's, or the chat type of the fixture's source template. */
function withMatchingCredentials(body: Json, state: FuzzState): Json {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || body.credentials === undefined) return body;
  return { ...body, credentials: state.credentials[typeof body.connector_type === 'string' ? body.connector_type : 'chat']! };
}

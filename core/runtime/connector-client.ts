import type { CompiledConnector } from '../plugins/compiled-connector.ts';
import type { EntityState } from '../hosted/context-store/context-store.ts';
import { checkCredentials, type CredentialCheckResult } from '../execution/check-credentials.ts';
import { paginate } from '../execution/paginate.ts';
import type { DownloadResult, ExecuteFunction, ExecuteRequest, ExecuteResult } from '../execution/types.ts';

/** Types of one action, keyed `entity.action` in a connector's (generated) type map. */
export interface ActionTypes {
  params: object;
  result: unknown;
  meta: object;
  /** Set on download actions, which resolve to a DownloadResult instead of the envelope. */
  download?: true;
}
export type ConnectorTypeMap = { [key: string]: ActionTypes };

/** The loose map of a connector whose generated types the caller did not name. */
// biome-ignore lint/suspicious/noExplicitAny: records of a connector whose types are not named are only known at run time.
export type UntypedConnector = { [key: string]: { params: Record<string, unknown>; result: any; meta: Record<string, unknown> } };

type Key<M> = keyof M & string;
type EntityOf<K extends string> = K extends `${infer E}.${string}` ? E : never;
type ActionOf<K extends string, E extends string> = K extends `${E}.${infer A}` ? A : never;
type Item<T> = T extends Array<infer R> ? R : T;
/** Params may be left out when the action requires none. */
// biome-ignore lint/complexity/noBannedTypes: `{}` is the type every all-optional params object extends.
type ParamsArg<P> = {} extends P ? [params?: P] : [params: P];

/** `{entity, action, params}` for one key of the map, so literal entity/action pick the right types. */
export type TypedRequest<M extends ConnectorTypeMap> =
  string extends Key<M> ? ExecuteRequest : { [K in Key<M>]: { entity: EntityOf<K>; action: ActionOf<K, EntityOf<K>>; params?: M[K]['params'] } }[Key<M>];
type KeyOf<R extends { entity: string; action: string }> = `${R['entity']}.${R['action']}`;
/** The envelope typed from the map, or a DownloadResult for a download action. */
type Outcome<T extends ActionTypes> = T extends { download: true } ? DownloadResult : ExecuteResult<T['result'], T['meta']>;
type ResultOf<M extends ConnectorTypeMap, R extends { entity: string; action: string }> = KeyOf<R> extends keyof M ? Outcome<M[KeyOf<R>]> : ExecuteResult;

/** `client.users.list({ limit })`: one method per declared entity.action, typed from the schemas. */
export type ConnectorFacade<M extends ConnectorTypeMap> =
  string extends Key<M>
    ? // A connector whose types the caller did not name: entity and action names are only known at run time.
      // biome-ignore lint/suspicious/noExplicitAny: entity and action names are only known at run time.
      { [entity: string]: any }
    : {
        [E in EntityOf<Key<M>>]: {
          [A in ActionOf<Key<M>, E>]: (...params: ParamsArg<M[`${E}.${A}`]['params']>) => Promise<Outcome<M[`${E}.${A}`]>>;
        };
      };

export interface ConnectorHandle<M extends ConnectorTypeMap> {
  readonly type: string;
  /** Runs `{entity, action, params}` and resolves to the result envelope (a DownloadResult for a download), or throws a PlugboardError. */
  execute<R extends TypedRequest<M>>(request: R): Promise<ResultOf<M, R>>;
  /** Yields every record of a paginated list, page after page. */
  paginate<R extends TypedRequest<M>>(request: R): AsyncGenerator<Item<Extract<ResultOf<M, R>, { result: unknown }>['result']>>;
  /**
   * Runs the connector's declared credential check (chat: Slack `auth.test`; file-storage: Drive
   * `about.get`): `accepted`, or `unchecked` when the connector declares none. Throws a 400
   * `credentials_rejected` when the upstream refuses the credentials, and the upstream's own error
   * (502, 429) when it cannot tell. The hosted variant checks the credentials the server holds.
   */
  checkCredentials(): Promise<CredentialCheckResult>;
}

/** What an in-process instance given a local context store adds (`context_store: {path}`). */
export interface LocalContextStoreHandle {
  /**
   * Replicates the upstream into the local context store (the connector's replication, as the
   * hosted server runs it) and resolves to each searchable entity's state. `config` is the
   * connector's replication_config (chat: start_date, lookback_window, join_channels).
   */
  replicate(config?: Record<string, unknown>): Promise<Record<string, EntityState>>;
  /** Closes the local context store's database. */
  close(): Promise<void>;
}

export type ConnectorClient<M extends ConnectorTypeMap = UntypedConnector> = ConnectorHandle<M> & ConnectorFacade<M> & Partial<LocalContextStoreHandle>;

/**
 * Builds the client both modes share: the in-process instance and the hosted variant differ only in
 * the `execute` function they hand in.
 */
export function createConnectorClient<M extends ConnectorTypeMap>(
  connector: CompiledConnector,
  execute: ExecuteFunction,
  local?: LocalContextStoreHandle,
): ConnectorClient<M> {
  const client: Record<string, unknown> = {
    ...local,
    type: connector.type,
    execute,
    paginate: (request: ExecuteRequest) => paginate(connector, execute, request),
    checkCredentials: () => checkCredentials(connector, execute),
  };
  for (const entity of connector.entities()) {
    client[entity] = Object.fromEntries(
      connector.actionsOf(entity).map((action) => [action, (params?: Record<string, unknown>) => execute({ entity, action, params })]),
    );
  }
  return client as unknown as ConnectorClient<M>;
}

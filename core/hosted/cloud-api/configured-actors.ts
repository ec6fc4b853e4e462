import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { invalidField, NotFoundError } from '../../errors.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { Store } from '../../stores/types.ts';
import type { ActorKind, ActorKinds, Endpoint, Loc } from './actor-kind.ts';
import type { ActorRow, ActorTable } from './actor-table.ts';
import { maskSecrets, mergeConfiguration, restoreMasked } from './configuration-secrets.ts';
import type { ConfigurationVault } from './configuration-vault.ts';
import { requireWorkspace } from '../permissions/request-access.ts';
import { workspaceOf } from './organization-workspaces.ts';
import type { PublicPage } from './public-workspaces.ts';
import { endpointChanges, keptSecrets, secretRequired, unboundSecrets } from './secret-binding.ts';

/** A source or destination, its configuration opened (secrets in clear: never answered as is, see `masked`). */
export interface ConfiguredActor<K extends ActorKind> {
  id: string;
  organizationId: string;
  workspaceId: string;
  name: string;
  kind: K;
  configuration: Record<string, unknown>;
  /** The endpoint its secrets were entered for; undefined: the one its configuration and kind name now. Never answered. */
  secretEndpoint: Endpoint | undefined;
  /** Epoch milliseconds. */
  createdAt: number;
}

export interface ActorCreateInput {
  name: string;
  workspaceId: string;
  definitionId?: string;
  configuration: Record<string, unknown>;
}

export interface ActorChanges {
  name?: string;
  workspaceId?: string;
  configuration?: Record<string, unknown>;
}

const BODY: Loc = ['body'];

/**
 * What sources and destinations share: configurations checked against their type's schema and tried
 * against their system before anything is stored, sealed at rest, masked in answers; every one in a
 * workspace of the caller's organization (any other is not found).
 */
export class ConfiguredActors<K extends ActorKind> {
  constructor(
    private readonly table: ActorTable,
    private readonly kinds: ActorKinds<K>,
    private readonly vault: ConfigurationVault,
    private readonly store: Store,
    /** `source` or `destination`: in error codes and messages. */
    private readonly noun: string,
  ) {}

  async list(organizationId: string, page: { workspaceIds?: string[]; limit: number; offset: number }): Promise<PublicPage<ConfiguredActor<K>>> {
    const rows = await this.table.list(organizationId, { ...page, limit: page.limit + 1 });
    return { items: rows.slice(0, page.limit).map((row) => this.opened(row)), more: rows.length > page.limit };
  }

  async get(organizationId: string, id: string): Promise<ConfiguredActor<K>> {
    const actor = await this.open(id);
    if (!actor || actor.organizationId !== organizationId) throw this.notFound(id);
    requireWorkspace(actor.workspaceId);
    return actor;
  }

  /** Any organization's: for the sync engine, which runs what was stored. */
  async open(id: string): Promise<ConfiguredActor<K> | undefined> {
    const row = await this.table.get(id.toLowerCase());
    return row && this.opened(row);
  }

  /** The type of a stored one, its configuration left sealed. */
  async kindOf(id: string): Promise<K | undefined> {
    const row = await this.table.get(id);
    return row && this.kindNamed(row.type);
  }

  async create(organizationId: string, input: ActorCreateInput): Promise<ConfiguredActor<K>> {
    const workspace = await workspaceOf(this.store, organizationId, input.workspaceId);
    const kind = this.resolve(input.configuration, input.definitionId);
    const id = randomUUID();
    const configuration = this.accepted(kind, id, input.configuration, undefined);
    const actor: ConfiguredActor<K> = {
      id,
      organizationId,
      workspaceId: workspace.id,
      name: input.name,
      kind,
      configuration,
      secretEndpoint: kind.endpoint?.(configuration),
      createdAt: Date.now(),
    };
    // Last, since it reaches the system: whatever it throws, nothing has been stored.
    const renewed = await kind.check(configuration, actor);
    if (renewed) actor.configuration = this.typed(kind, renewed);
    await this.table.insert({
      id: actor.id,
      organization_id: organizationId,
      workspace_id: actor.workspaceId,
      name: actor.name,
      type: kind.name,
      configuration: this.vault.seal(actor.configuration),
      secret_endpoint: actor.secretEndpoint === undefined ? null : JSON.stringify(actor.secretEndpoint),
      created_at: actor.createdAt,
    });
    return actor;
  }

  /**
   * `patch`: the configuration fields given are merged into the stored ones; `put`: the configuration
   * given replaces it. Either way a masked secret sent back keeps the stored one, the type stays, and
   * a configuration that changed is tried against its system again before it is stored. A change of
   * endpoint (or a definition's, since the secrets were entered) must give every secret again: a kept
   * one is a 400 `secret_required`, before anything reaches the new endpoint.
   */
  async update(organizationId: string, id: string, changes: ActorChanges, mode: 'patch' | 'put'): Promise<ConfiguredActor<K>> {
    const actor = await this.get(organizationId, id);
    if (changes.workspaceId !== undefined && changes.workspaceId.toLowerCase() !== actor.workspaceId) {
      throw invalidField([...BODY, 'workspaceId'], `a ${this.noun} stays in its workspace`, 'value_error.workspace_change');
    }
    let configuration = actor.configuration;
    let secretEndpoint: Endpoint | undefined;
    if (changes.configuration !== undefined) {
      const given = mode === 'patch' ? mergeConfiguration(actor.configuration, changes.configuration) : changes.configuration;
      const kind = this.resolve(given, undefined, actor.kind);
      if (kind.name !== actor.kind.name) {
        throw invalidField([...BODY, 'configuration', this.kinds.typeField], `a ${this.noun} keeps its type (${actor.kind.name})`, 'value_error.type_change');
      }
      const accepted = this.accepted(kind, actor.id, given, actor.configuration);
      const endpoint = kind.endpoint?.(accepted);
      const moved = endpointChanges(this.boundEndpoint(actor), endpoint);
      const kept = moved.length > 0 ? keptSecrets(accepted, changes.configuration, kind.secrets) : [];
      if (kept.length > 0) throw secretRequired(moved, kept, [...BODY, 'configuration']);
      // Unchanged (a client writing back what it read): nothing to try again, nothing to seal again.
      if (moved.length > 0 || !isDeepStrictEqual(accepted, actor.configuration)) {
        const renewed = await kind.check(accepted, actor);
        configuration = renewed ? this.typed(kind, renewed) : accepted;
        secretEndpoint = endpoint;
      }
    }
    const sealed = configuration === actor.configuration ? undefined : this.vault.seal(configuration);
    const boundTo = secretEndpoint === undefined ? undefined : JSON.stringify(secretEndpoint);
    if (!(await this.table.update(actor.id, { name: changes.name, configuration: sealed, secretEndpoint: boundTo }))) throw this.notFound(id);
    return { ...actor, name: changes.name ?? actor.name, configuration, secretEndpoint: secretEndpoint ?? actor.secretEndpoint };
  }

  /**
   * Before its stored configuration is used (a check, a sync): its secrets may go only to the endpoint
   * they were entered for. A declarative definition updated since to another base URL or auth makes
   * this a 400 `secret_required` until the secrets are given again.
   */
  assertSecretsBound(actor: ConfiguredActor<K>): void {
    if (!actor.kind.endpoint) return;
    const moved = endpointChanges(this.boundEndpoint(actor), actor.kind.endpoint(actor.configuration));
    const kept = moved.length > 0 ? keptSecrets(actor.configuration, undefined, actor.kind.secrets) : [];
    if (kept.length > 0) throw unboundSecrets(this.noun, actor.id, moved, kept);
  }

  /**
   * Keeps a configuration its system renewed while it was used (a check, a sync: a rotated single-use
   * refresh token) in place of the stored one. Not tried again: the system just gave it. A change
   * made meanwhile through the API is replaced; the renewal is the one that still works.
   */
  async keepRenewed(actor: ConfiguredActor<K>, renewed: Record<string, unknown>): Promise<void> {
    await this.table.update(actor.id, { configuration: this.vault.seal(this.typed(actor.kind, renewed)) });
  }

  /** Deletes it and the connections using it (answered: their ids); `bury` runs in the same transaction. */
  async delete(actor: ConfiguredActor<K>, bury: (tx: SqlDriver) => Promise<void>): Promise<string[]> {
    const { deleted, connectionIds } = await this.table.delete(actor.id, bury);
    if (!deleted) throw this.notFound(actor.id);
    return connectionIds;
  }

  /** The ids of its kind's stored ones (a declarative definition's sources, deleted with it). */
  idsOfType(type: string): Promise<string[]> {
    return this.table.idsOfType(type);
  }

  /** The configuration as answers show it. */
  masked(actor: ConfiguredActor<K>): Record<string, unknown> {
    return maskSecrets(actor.configuration, actor.kind.secrets);
  }

  notFound(id: string): NotFoundError {
    return new NotFoundError(`${this.noun.charAt(0).toUpperCase()}${this.noun.slice(1)} ${id} not found`, `${this.noun}_not_found`);
  }

  /** Where its stored secrets may go: the endpoint recorded with them, else the one its configuration and kind name now. */
  private boundEndpoint(actor: ConfiguredActor<K>): Endpoint | undefined {
    return actor.secretEndpoint ?? actor.kind.endpoint?.(actor.configuration);
  }

  /** The configuration to store: masks restored from `stored`, the type named, defaults filled in, valid for its kind. */
  private accepted(kind: K, id: string, given: Record<string, unknown>, stored: Record<string, unknown> | undefined): Record<string, unknown> {
    const loc = [...BODY, 'configuration'];
    const restored = { ...restoreMasked(given, stored, loc), [this.kinds.typeField]: kind.name };
    const configuration = kind.withDefaults?.(restored, id) ?? restored;
    kind.validate(configuration, loc);
    return configuration;
  }

  /** A configuration as stored: its type field naming the kind. */
  private typed(kind: K, configuration: Record<string, unknown>): Record<string, unknown> {
    return { ...configuration, [this.kinds.typeField]: kind.name };
  }

  /** The kind the configuration's type field or the definition id names (they must agree), else `fallback`. */
  protected resolve(configuration: Record<string, unknown>, definitionId: string | undefined, fallback?: K): K {
    const field = this.kinds.typeField;
    const named = configuration[field];
    const byName = typeof named === 'string' ? this.kinds.byName(named) : undefined;
    if (typeof named === 'string' && !byName) {
      const allowed = this.kinds.names().join(', ');
      throw invalidField([...BODY, 'configuration', field], `unknown ${field} "${named}"; allowed: ${allowed}`, 'value_error.unknown_type');
    }
    const byId = definitionId === undefined ? undefined : this.kinds.byDefinitionId(definitionId);
    if (definitionId !== undefined && !byId) {
      throw invalidField([...BODY, 'definitionId'], `no ${this.noun} type has definition id ${definitionId}`, 'value_error.unknown_definition');
    }
    if (byName && byId && byName !== byId) {
      throw invalidField([...BODY, 'definitionId'], `definition id ${definitionId} is ${byId.name}'s, not ${byName.name}'s`, 'value_error.definition_mismatch');
    }
    const kind = byName ?? byId ?? fallback;
    if (!kind) throw invalidField([...BODY, 'configuration', field], `field required (or definitionId)`, 'value_error.missing');
    return kind;
  }

  private opened(row: ActorRow): ConfiguredActor<K> {
    return {
      id: row.id,
      organizationId: row.organization_id,
      workspaceId: row.workspace_id,
      name: row.name,
      kind: this.kindNamed(row.type),
      configuration: this.vault.open(row.configuration),
      secretEndpoint: row.secret_endpoint === null ? undefined : (JSON.parse(row.secret_endpoint) as Endpoint),
      createdAt: row.created_at,
    };
  }

  private kindNamed(type: string): K {
    return this.kinds.byName(type) ?? this.kinds.unloaded(type);
  }
}

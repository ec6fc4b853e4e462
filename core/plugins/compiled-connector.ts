import type { ValidateFunction } from 'ajv';
import { invalidField } from '../errors.ts';
import { ACTION_NAMES, type ActionDefinition, type ConnectorDefinition } from '../sdk/index.ts';
import type { ConnectorValidators } from './schema-compilation.ts';
import { FieldCatalog } from '../hosted/context-store/field-catalog.ts';
import type { ManifestRunner } from '../manifests/connector/manifest-runner.ts';

/** Action names accepted for another: newer clients say `context_store_search` for `search`. */
const ACTION_ALIASES: Record<string, string> = { context_store_search: 'search' };

export interface CompiledAction {
  definition: ActionDefinition;
  validateParams: ValidateFunction;
  validateRecord: ValidateFunction;
  /** Property names of the record schema: every record carries them all, null when upstream omitted one. */
  recordFields: string[];
  /** Search actions: the fields of the entity's stored documents. */
  catalog?: FieldCatalog;
}

/** A loaded connector: its definition with every schema compiled once, and actions indexed by entity. */
export class CompiledConnector {
  private readonly actions = new Map<string, Map<string, CompiledAction>>();
  /** Validates a hosted connector's `replication_config`, when the connector type declares one. */
  readonly validateReplicationConfig: ValidateFunction | undefined;

  /** Validates an instance's `config`, when the connector is configured. */
  readonly validateConfig: ValidateFunction | undefined;

  /** `validators` are compileSchemas' for this definition, which loaded without a problem. */
  constructor(
    readonly definition: ConnectorDefinition,
    validators: ConnectorValidators,
    /** Set when the connector is an Airbyte manifest: its reads are the interpreter's. */
    readonly manifest?: ManifestRunner,
  ) {
    this.validateReplicationConfig = validators.replicationConfig;
    this.validateConfig = validators.config;
    for (const action of definition.actions) {
      const byAction = this.actions.get(action.entity) ?? new Map<string, CompiledAction>();
      byAction.set(action.action, {
        definition: action,
        ...validators.actions.get(`${action.entity}.${action.action}`)!,
        recordFields: Object.keys((action.record.properties as Record<string, unknown> | undefined) ?? {}),
        ...(action.searchIndex ? { catalog: new FieldCatalog(action.entity, action.searchIndex) } : {}),
      });
      this.actions.set(action.entity, byAction);
    }
  }

  get type(): string {
    return this.definition.type;
  }

  entities(): string[] {
    return [...this.actions.keys()];
  }

  /** The searchable entities and their catalogs: what replication fills. */
  searchCatalogs(): Map<string, FieldCatalog> {
    const catalogs = new Map<string, FieldCatalog>();
    for (const [entity, byAction] of this.actions) {
      const catalog = byAction.get('search')?.catalog;
      if (catalog) catalogs.set(entity, catalog);
    }
    return catalogs;
  }

  actionsOf(entity: string): string[] {
    return [...(this.actions.get(entity)?.keys() ?? [])];
  }

  /** Finds entity.action, or throws the 422 that names what is allowed. */
  resolve(entity: unknown, given: unknown): CompiledAction {
    const action = typeof given === 'string' ? (ACTION_ALIASES[given] ?? given) : given;
    if (entity === undefined) throw invalidField(['body', 'entity'], 'field required', 'value_error.missing');
    if (action === undefined) throw invalidField(['body', 'action'], 'field required', 'value_error.missing');
    if (typeof entity !== 'string') throw invalidField(['body', 'entity'], 'value is not a valid string', 'type_error.str');
    if (typeof action !== 'string') throw invalidField(['body', 'action'], 'value is not a valid string', 'type_error.str');
    const byAction = this.actions.get(entity);
    if (!byAction) {
      throw invalidField(
        ['body', 'entity'],
        `unknown entity "${entity}" for connector type "${this.type}"; allowed: ${this.entities().join(', ')}`,
        'value_error.unknown_entity',
      );
    }
    if (!(ACTION_NAMES as readonly string[]).includes(action)) {
      throw invalidField(
        ['body', 'action'],
        `unknown action "${action}"; allowed for ${entity}: ${this.actionsOf(entity).join(', ')}`,
        'value_error.unknown_action',
      );
    }
    const compiled = byAction.get(action);
    if (!compiled) {
      throw invalidField(
        ['body', 'action'],
        `entity "${entity}" does not offer action "${action}"; allowed: ${this.actionsOf(entity).join(', ')}`,
        'value_error.action_not_allowed',
      );
    }
    return compiled;
  }
}

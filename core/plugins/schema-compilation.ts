import type { Ajv, ValidateFunction } from 'ajv';
import { describeSchemaCompileError } from '../schema/schema-compile-errors.ts';
import { isObject } from './value-shapes.ts';

export interface ActionValidators {
  validateParams: ValidateFunction;
  validateRecord: ValidateFunction;
}

export interface ConnectorValidators {
  /** Keyed `entity.action`; an action with a schema that does not compile has none. */
  actions: Map<string, ActionValidators>;
  /** Validates a hosted connector's `replication_config`, when the connector type declares one. */
  replicationConfig: ValidateFunction | undefined;
  /** Validates an instance's `config`, when the connector is configured (declares `config`). */
  config?: ValidateFunction | undefined;
}

/**
 * Compiles every schema of a definition, a malformed one included, so that one load names every
 * schema that does not compile (a schema that is not even an object is the structural checks' to
 * name). Also checks the credential check's fixed params against its action's params schema.
 */
export function compileSchemas(candidate: unknown, ajv: Ajv): ConnectorValidators & { problems: string[] } {
  const problems: string[] = [];
  const compile = (schema: unknown, what: string): ValidateFunction | undefined => {
    if (!isObject(schema)) return undefined;
    try {
      return ajv.compile(schema);
    } catch (error) {
      problems.push(`${what}: ${describeSchemaCompileError((error as Error).message)}`);
      return undefined;
    }
  };
  const actions = new Map<string, ActionValidators>();
  if (!isObject(candidate)) return { actions, replicationConfig: undefined, problems };
  const replicationConfig = compile(candidate.replicationConfig, 'replicationConfig schema');
  const config = compile(candidate.config, 'config schema');
  for (const action of Array.isArray(candidate.actions) ? candidate.actions : []) {
    if (!isObject(action)) continue;
    const key = `${String(action.entity)}.${String(action.action)}`;
    const validateParams = compile(action.params, `params schema of ${key}`);
    const validateRecord = compile(action.record, `record schema of ${key}`);
    // Meta schemas only type the generated facade, but a broken one is still a broken plugin.
    compile(action.meta, `meta schema of ${key}`);
    if (validateParams && validateRecord) actions.set(key, { validateParams, validateRecord });
  }
  // The check's params are fixed in the definition: params its action would refuse are a broken plugin, found at load.
  const { check } = candidate;
  const checked = isObject(check) ? actions.get(`${String(check.entity)}.${String(check.action)}`) : undefined;
  if (checked && !checked.validateParams(check.params ?? {})) {
    problems.push(`check params do not fit ${check.entity}.${check.action}: ${ajv.errorsText(checked.validateParams.errors)}`);
  }
  return { actions, replicationConfig, config, problems };
}

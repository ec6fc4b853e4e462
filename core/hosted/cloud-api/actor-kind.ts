import type { ValidateFunction } from 'ajv';
import { BadRequestError, ValidationError } from '../../errors.ts';
import { toValidationIssues } from '../../schema/validation-issues.ts';

export type Loc = Array<string | number>;

/**
 * Where a configuration's secrets are sent, as named values (`host`, `port`, `database`; a declarative
 * source's `manifest.defaultBaseUrl`): a secret entered for one endpoint never goes to another unless
 * it is given again (see secret-binding.ts).
 */
export type Endpoint = Record<string, unknown>;

/**
 * One type of source or destination the public API takes (`slack`, `chat`, `postgres`...): how its
 * configuration is checked, which of its fields are secrets, and whether it reaches its system.
 */
export interface ActorKind {
  /** The type as the API names it (`configuration.sourceType` / `destinationType`, the answers' type). */
  name: string;
  definitionId: string;
  /** Names of the configuration's secret fields: masked in every answer. */
  secrets: ReadonlySet<string>;
  /** Where the configuration's secrets go; none for a kind whose system the operator sets (a built-in source). */
  endpoint?(configuration: Record<string, unknown>): Endpoint;
  /** The configuration with the defaults of fields left out filled in (a SQLite destination's file), before it is validated. */
  withDefaults?(configuration: Record<string, unknown>, actorId: string): Record<string, unknown>;
  /** Throws a ValidationError (issues under `loc`) unless the configuration is one this kind takes. */
  validate(configuration: Record<string, unknown>, loc: Loc): void;
  /**
   * Tries the configuration against its system: throws a 400 when the system refuses it. Answers the
   * configuration the try renewed (an Airbyte manifest's single-use refresh token, rotated by the
   * system), without the type field, when it did: it replaces the one given, which no longer works.
   */
  check(configuration: Record<string, unknown>, actor: { id: string; workspaceId: string }): Promise<Record<string, unknown> | undefined>;
}

/** The kinds of sources (or of destinations), by name and by definition id. */
export interface ActorKinds<K extends ActorKind> {
  /** The configuration's field naming the kind: `sourceType` or `destinationType`. */
  readonly typeField: 'sourceType' | 'destinationType';
  byName(name: string): K | undefined;
  byDefinitionId(definitionId: string): K | undefined;
  names(): string[];
  /** Stands for a stored type no longer loaded (see unloadedKind). */
  unloaded(name: string): K;
}

/**
 * Runs a compiled schema, a failure as a ValidationError under `loc`. An `if`'s own error ("must match
 * the then schema") is left out: the `then` branch's errors say what is missing.
 */
export function validateWith(validate: ValidateFunction, value: unknown, loc: Loc): void {
  if (validate(value)) return;
  const errors = (validate.errors ?? []).filter((error) => error.keyword !== 'if');
  throw new ValidationError(toValidationIssues(errors, loc));
}

/**
 * A stored type this server no longer loads (a plugin taken out of the deployment): its resources are
 * still listed, read and deleted, but no configuration of it is taken or checked.
 */
export function unloadedKind(name: string, definitionId: string, secrets: ReadonlySet<string>): ActorKind {
  const unavailable = () =>
    new BadRequestError(`Type "${name}" is not loaded on this server: its configuration can be neither changed nor checked`, 'type_not_loaded');
  return {
    name,
    definitionId,
    secrets,
    validate() {
      throw unavailable();
    },
    check: () => Promise.reject(unavailable()),
  };
}

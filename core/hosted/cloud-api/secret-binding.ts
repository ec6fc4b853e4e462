import { isDeepStrictEqual } from 'node:util';
import { BadRequestError, PlugboardError, type ValidationIssue } from '../../errors.ts';
import type { Endpoint, Loc } from './actor-kind.ts';
import { isObject, SECRET_MASK } from './configuration-secrets.ts';

/** The error code of a secret that must be given again before it may go to a new endpoint. */
export const SECRET_REQUIRED = 'secret_required';

/** The names of the endpoint's values that differ between the two (a value left out counts as null). */
export function endpointChanges(before: Endpoint | undefined, after: Endpoint | undefined): string[] {
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...names].filter((name) => !isDeepStrictEqual(before?.[name] ?? null, after?.[name] ?? null)).sort();
}

/**
 * The places (paths from the configuration's root) of the secrets `configuration` holds that `given`
 * does not hold in clear: kept from the stored configuration, as a mask sent back or a field a PATCH
 * left out.
 */
export function keptSecrets(configuration: unknown, given: unknown, secrets: ReadonlySet<string>, at: Loc = []): Loc[] {
  if (Array.isArray(configuration)) {
    return configuration.flatMap((item, i) => keptSecrets(item, Array.isArray(given) ? given[i] : undefined, secrets, [...at, i]));
  }
  if (!isObject(configuration)) return [];
  const givenObject = isObject(given) ? given : {};
  return Object.entries(configuration).flatMap(([key, value]) => {
    const place = [...at, key];
    if (secrets.has(key) && typeof value === 'string' && value !== '') {
      const again = givenObject[key];
      return typeof again === 'string' && again !== SECRET_MASK ? [] : [place];
    }
    return keptSecrets(value, givenObject[key], secrets, place);
  });
}

/**
 * A 400 `secret_required` for a change of endpoint that keeps stored secrets: one issue per secret to
 * give again, each naming the endpoint values that changed. The secrets' values never appear.
 */
export function secretRequired(changed: string[], kept: Loc[], loc: Loc): PlugboardError {
  const why = `the secret was entered for another endpoint (${changed.join(', ')} changed): give it again with the change`;
  const issues: ValidationIssue[] = kept.map((place) => ({ loc: [...loc, ...place], msg: why, type: `value_error.${SECRET_REQUIRED}` }));
  return new PlugboardError(400, issues, SECRET_REQUIRED);
}

/** At run time: the stored secrets were entered for another endpoint than the one they would now go to. */
export function unboundSecrets(noun: string, id: string, changed: string[], kept: Loc[]): BadRequestError {
  const fields = kept.map((place) => `configuration.${place.join('.')}`).join(', ');
  return new BadRequestError(
    `${SECRET_REQUIRED}: the ${noun} ${id}'s secrets (${fields}) were entered for another endpoint than the one it now uses (${changed.join(', ')} changed): ` +
      `enter them again (PATCH /v1/${noun}s/${id} with the secrets) before it runs`,
    SECRET_REQUIRED,
  );
}

import { parse } from 'yaml';
import { invalidField } from '../../errors.ts';
import { isObject } from '../../plugins/value-shapes.ts';
import type { Loc } from './actor-kind.ts';

/** A manifest as data: JSON values only (what is stored and answered). */
export type Manifest = Record<string, unknown>;

/**
 * The manifest a request gives, as an object: given as one, or as YAML text (JSON text being YAML
 * too). YAML's values that JSON has not (`.inf`, `.nan`) become what JSON makes of them.
 */
export function manifestObject(given: Manifest | string, loc: Loc): Manifest {
  if (typeof given !== 'string') return given;
  let parsed: unknown;
  try {
    parsed = parse(given);
  } catch (error) {
    throw invalidField(loc, `the manifest is not valid YAML: ${(error as Error).message.split('\n')[0]}`, 'value_error.yaml');
  }
  if (!isObject(parsed)) throw invalidField(loc, 'a YAML manifest must be a mapping (the connector definition)', 'type_error.dict');
  try {
    return JSON.parse(JSON.stringify(parsed)) as Manifest;
  } catch {
    // An alias inside what it names (`a: &x [ *x ]`) makes a structure without end.
    throw invalidField(loc, 'the manifest refers to itself (a YAML alias inside its own anchor)', 'value_error.yaml');
  }
}

/**
 * Whether a published manifest is Airbyte's declarative format (the Connector Builder's low-code
 * YAML) rather than Plugboard's own: its `type` says so, or, as the CDK allows, it leaves the type
 * out and has Airbyte's `version` and streams. A Plugboard manifest always names its own type.
 */
export function isAirbyteManifest(manifest: Manifest): boolean {
  if (manifest.type === 'DeclarativeSource') return true;
  return manifest.type === undefined && manifest.version !== undefined && (manifest.streams !== undefined || manifest.dynamic_streams !== undefined);
}

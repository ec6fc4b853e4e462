import { parse } from 'yaml';
import { copyJson, isObject, type JsonObject } from './json-values.ts';
import { type ManifestProblem, problemAt } from './manifest-load-error.ts';

export type ParsedManifest = { ok: true; manifest: JsonObject } | { ok: false; problem: ManifestProblem };

/**
 * The manifest as a plain object: YAML text parsed (JSON is YAML too), or a copy of the object given.
 * YAML is read as 1.2 (the `yaml` package's default: `yes` stays a string where Python's YAML 1.1 says
 * true), with `<<` merge keys and, as Python's loader does, the last of duplicate keys winning.
 */
export function parseManifest(source: string | object): ParsedManifest {
  let value: unknown = source;
  if (typeof source === 'string') {
    try {
      value = parse(source, { merge: true, uniqueKeys: false });
    } catch (error) {
      return { ok: false, problem: problemAt('syntax', [], `the manifest is not valid YAML: ${(error as Error).message.split('\n')[0]}`) };
    }
  }
  if (!isObject(value)) {
    const what = value === null || value === undefined ? 'empty' : Array.isArray(value) ? 'a list' : typeof value;
    return { ok: false, problem: problemAt('syntax', [], `a manifest is a mapping (type, version, check, streams, spec…), not ${what}`) };
  }
  return { ok: true, manifest: typeof source === 'string' ? value : copyJson(value) };
}

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { recordSkippedValidation } from './skipped-validations.ts';
import { DRIVE_PREFIXED_FILE, SLACK_NOTOKEN_FILE, SPECS_CACHE_DIR } from '../../scripts/specs/sources.ts';

/**
 * Finds the official upstream specs the conformance checks read. In order: the file an environment
 * variable names; the cache `npm run specs:fetch` fills (`.specs-cache/`); `shared/specs` in the
 * nearest ancestor folder that has the file (the workplace and CI keep them beside the checkout);
 * `shared/specs` beside the folder a local clone was cloned from.
 */

const REPOSITORY = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Set by CI: a missing spec fails the run instead of skipping the conformance checks. */
export const SPECS_REQUIRED = process.env.PLUGBOARD_REQUIRE_SPECS === '1';

export interface SharedSpec {
  /** What the checks are about, for the skip line. */
  label: string;
  file: string;
  envVar: string;
}

export const SLACK_SPEC: SharedSpec = { label: 'Slack', file: SLACK_NOTOKEN_FILE, envVar: 'SLACK_OPENAPI_SPEC' };
export const DRIVE_SPEC: SharedSpec = { label: 'Drive', file: DRIVE_PREFIXED_FILE, envVar: 'DRIVE_OPENAPI_SPEC' };
/** Airbyte's public cloud API (YAML), and the API family holding its token endpoint. */
export const AIRBYTE_PUBLIC_SPEC: SharedSpec = { label: 'Public cloud API', file: 'airbyte/api_sdk.yaml', envVar: 'AIRBYTE_API_SDK_SPEC' };
export const AIRBYTE_TOKEN_SPEC: SharedSpec = { label: 'Public cloud API token', file: 'airbyte/api.yaml', envVar: 'AIRBYTE_API_SPEC' };

/** Where the spec is, or undefined; a variable naming a file that does not exist is an error. */
function findSharedSpec(spec: Pick<SharedSpec, 'file'> & { envVar?: string }): string | undefined {
  const named = spec.envVar ? process.env[spec.envVar] : undefined;
  if (named) {
    if (!existsSync(named)) throw new Error(`${spec.envVar}=${named}: no such file`);
    return named;
  }
  return findInSpecsFolders(spec.file);
}

/**
 * The parsed spec, or undefined (counted as a skipped validation, which the run reports once). Under
 * PLUGBOARD_REQUIRE_SPECS=1 a missing spec throws instead, so the suite fails.
 */
export function loadSharedSpec<T>(spec: SharedSpec): T | undefined {
  const path = findSharedSpec(spec);
  if (path) return (path.endsWith('.yaml') ? parseYaml(readFileSync(path, 'utf8')) : JSON.parse(readFileSync(path, 'utf8'))) as T;
  // specs:fetch brings the Slack and Drive specs; Airbyte's are read from shared/specs or the variable.
  const howTo = spec.file.startsWith('airbyte/') ? `set ${spec.envVar}` : `run npm run specs:fetch or set ${spec.envVar}`;
  if (SPECS_REQUIRED) throw new Error(`${spec.file} not found (PLUGBOARD_REQUIRE_SPECS=1); ${howTo}`);
  // Said once for the whole run, with the count of what was skipped (skipped-validations.setup.ts).
  recordSkippedValidation(spec.label);
  return undefined;
}

/** A folder laid out as the specs folder (originals and derived files), holding `file`. */
export function findSpecsFolder(file: string): string | undefined {
  const path = findInSpecsFolders(file);
  return path ? path.slice(0, -file.length - 1) : undefined;
}

function findInSpecsFolders(file: string): string | undefined {
  const candidates = [join(SPECS_CACHE_DIR, file), ...ancestorSpecPaths(REPOSITORY, file)];
  // Only ask git for the origin when nothing nearer has the spec.
  const found = candidates.find((p) => existsSync(p));
  if (found) return found;
  const origin = localOrigin(REPOSITORY);
  return origin ? ancestorSpecPaths(origin, file).find((p) => existsSync(p)) : undefined;
}

/** `<dir>/shared/specs/<file>` for every directory above `repository`, nearest first. */
function ancestorSpecPaths(repository: string, file: string): string[] {
  const paths: string[] = [];
  let dir = dirname(repository);
  for (;;) {
    paths.push(join(dir, 'shared', 'specs', file));
    const parent = dirname(dir);
    if (parent === dir) return paths;
    dir = parent;
  }
}

/** The folder this checkout was cloned from, when it was cloned from a local path. */
function localOrigin(repository: string): string | undefined {
  try {
    const url = execFileSync('git', ['-C', repository, 'config', '--get', 'remote.origin.url'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const path = url.startsWith('file://') ? fileURLToPath(url) : url;
    return path.startsWith('/') && existsSync(path) ? resolve(path) : undefined;
  } catch {
    return undefined;
  }
}

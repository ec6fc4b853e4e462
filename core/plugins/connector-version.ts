import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConnectorDefinition } from '../sdk/index.ts';
import { specifierKind } from './specifier-kind.ts';

/**
 * The version to report for a loaded connector: the definition's own `version` when it has one, else the package.json version of a
 * connector loaded by package name, else "unversioned" (a path or URL names no release).
 */
export function connectorVersion(specifier: string, definition: ConnectorDefinition): string {
  if (typeof definition.version === 'string' && definition.version !== '') return definition.version;
  return packageVersion(specifier) ?? 'unversioned';
}

/**
 * The version in the package.json of the package a bare specifier (`acme`, `@team/acme/connector`)
 * names, found as Node finds the package for load-connector.ts beside this file: in the
 * node_modules folders from here up.
 */
function packageVersion(specifier: string): string | undefined {
  if (specifierKind(specifier) !== 'package') return undefined;
  const name = specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) {
      const version: unknown = (JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>).version;
      return typeof version === 'string' && version !== '' ? version : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

import { isAbsolute } from 'node:path';

/**
 * What a connector specifier names: a path (a relative one is taken from the working directory), a
 * URL (`file:///...`), or a package, which Node looks up in node_modules.
 */
export function specifierKind(specifier: string): 'path' | 'url' | 'package' {
  if (specifier.startsWith('.') || isAbsolute(specifier)) return 'path';
  return /^[a-z][a-z0-9+.-]*:/i.test(specifier) ? 'url' : 'package';
}

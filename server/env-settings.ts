import { ConfigurationError } from '../core/configuration-error.ts';

/**
 * An integer setting from `min` to `max`, `fallback` when unset or empty. Anything else refuses the
 * start naming the variable (Number() would read "" as 0, "1e3" as 1000 and "12abc" as NaN).
 */
export function integerSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new ConfigurationError(`${name} must be an integer ${range}, got ${JSON.stringify(env[name])}`);
  }
  return value;
}

/**
 * DATABASE_URL, when set, must name PostgreSQL: any other scheme (a MySQL URL, `sqlite:...`, a typo)
 * is refused before anything is opened. The message quotes the scheme only: the URL may hold a password.
 */
export function databaseUrlSetting(env: NodeJS.ProcessEnv): string | undefined {
  const url = env.DATABASE_URL?.trim();
  if (!url) return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== 'postgres' && scheme !== 'postgresql') {
    const found = scheme === undefined ? 'it has no scheme' : `its scheme is "${scheme}:"`;
    throw new ConfigurationError(`DATABASE_URL must be a postgres:// or postgresql:// URL (${found}); leave it unset to use SQLite under PLUGBOARD_DATA_DIR`);
  }
  return url;
}

/**
 * An absolute http:// or https:// URL (surrounding spaces trimmed), undefined when unset or empty.
 * A value without the scheme and `//`, with a user name or password, or with a query or fragment
 * refuses the start naming the variable (quoting the value unless it has an `@`, which may hold a password).
 */
export function httpUrlSetting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return undefined;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const got = value.includes('@') ? '' : `, got ${JSON.stringify(value)}`;
  // WHATWG URL reads "http:host" as http://host/: ask for the // so the value says what it means.
  if (!url || !/^https?:\/\//i.test(value)) throw new ConfigurationError(`${name} must be an absolute http:// or https:// URL${got}`);
  if (url.username || url.password) throw new ConfigurationError(`${name} must not carry a user name or password`);
  if (value.includes('?') || value.includes('#')) throw new ConfigurationError(`${name} must not have a query or fragment${got}`);
  return value;
}

/** A comma-separated list, each item trimmed, empty items (a trailing comma) dropped. */
export function listSetting(env: NodeJS.ProcessEnv, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

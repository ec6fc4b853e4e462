/**
 * A deployment mistake the operator must fix (a setting, the database, the data directory, the keys):
 * raised at start so the process refuses to start, in one line, instead of failing later. The message
 * names settings, hosts, roles and paths, never a password or key material.
 */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

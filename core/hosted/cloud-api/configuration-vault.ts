import { credentialsUnavailable, type DataKeyring, UndecryptableValueError } from '../../security/data-keyring.ts';
import type { EncryptedValue } from '../../stores/types.ts';

/**
 * Configurations at rest: the whole JSON encrypted with the deployment's data keys, since secrets sit
 * at any depth in it (the rest is no business of whoever reads the database file either).
 */
export class ConfigurationVault {
  constructor(private readonly keyring: DataKeyring) {}

  seal(configuration: Record<string, unknown>): EncryptedValue {
    return this.keyring.encrypt(JSON.stringify(configuration));
  }

  /** A key the deployment lost is a 503 the operator can act on (the key id), not a crash. */
  open(sealed: EncryptedValue): Record<string, unknown> {
    try {
      return JSON.parse(this.keyring.decrypt(sealed)) as Record<string, unknown>;
    } catch (error) {
      if (!(error instanceof UndecryptableValueError)) throw error;
      throw credentialsUnavailable('open the stored configuration', error);
    }
  }
}

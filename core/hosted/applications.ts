import { randomBytes, randomUUID } from 'node:crypto';
import { RateLimitedError } from '../errors.ts';
import type { ClientSecrets, SecretVerdict } from '../security/client-secrets.ts';
import { credentialsUnavailable, UndecryptableValueError } from '../security/data-keyring.ts';
import type { Application, Store } from '../stores/types.ts';
import type { CredentialAttemptLimits } from './credential-attempts.ts';

export interface NewApplicationCredentials {
  organization_id: string;
  client_id: string;
  /** Shown once; only its keyed hash is stored. */
  client_secret: string;
}

/** Name of the organization the first start of an empty install creates. */
const FIRST_ORGANIZATION_NAME = 'local';
/** Advisory-lock key serialising application creation across instances (and admin runs) sharing a database. */
const APPLICATIONS_LOCK = 7_263_105;

/** Application credentials: made with a secret shown once, checked at the application-token endpoint. */
export class Applications {
  constructor(
    private readonly store: Store,
    private readonly secrets: ClientSecrets,
    private readonly limits: CredentialAttemptLimits,
    /** Told of each application made, once it is stored: it becomes a user of its organization (core/hosted/permissions/). */
    private readonly created: (application: Application) => Promise<void> = async () => undefined,
  ) {}

  /**
   * Adds an application to the organization of that name, creating the organization when there is none,
   * and returns its credentials (the only time the secret is seen). Instances and admin runs doing this
   * at once are serialised, so a name never yields two organizations.
   */
  async create(organizationName: string): Promise<NewApplicationCredentials> {
    const secret = this.newSecret();
    const made = await this.store.transaction((tx) => insertApplication(tx, organizationName, secret), APPLICATIONS_LOCK);
    await this.created(made.application);
    return made.credentials;
  }

  /**
   * The first application of an empty install, or null when the store has one. Several instances starting
   * together on an empty database are serialised by the lock, so exactly one of them creates it.
   */
  async createFirst(): Promise<NewApplicationCredentials | null> {
    // The usual start finds an application: answer without taking the lock.
    if ((await this.store.countApplications()) > 0) return null;
    const secret = this.newSecret();
    const made = await this.store.transaction(
      async (tx) => ((await tx.countApplications()) > 0 ? null : insertApplication(tx, FIRST_ORGANIZATION_NAME, secret)),
      APPLICATIONS_LOCK,
    );
    if (!made) return null;
    await this.created(made.application);
    return made.credentials;
  }

  /**
   * The application these credentials belong to, or the 401 "Invalid authentication credentials" (the same answer whichever part is
   * wrong, in the same time: an unknown client id is checked against a decoy hash), or a 429 once the
   * caller's address or the client id failed too often (CredentialAttemptLimits). A hash in an older
   * form (scrypt, or under a data key no longer active) is replaced by the current one on its first
   * successful use.
   */
  async authenticate(clientId: string, clientSecret: string, address: string): Promise<Application> {
    await this.limits.admit(address);
    const application = await this.store.findApplicationByClientId(clientId);
    const verdict = await this.verify(clientSecret, application?.secret_hash ?? this.secrets.decoyHash, address, clientId);
    if (!application || verdict === 'invalid') return this.limits.refuse(address, clientId);
    if (verdict === 'valid-rehash') await this.store.updateApplicationSecretHash(application.id, this.secrets.hash(clientSecret));
    return application;
  }

  /**
   * A hash made with a data key this server lacks can't be checked: a 503 naming the key (never a 500,
   * never a secret), counted as a failure like any other (or a 429 past the limits).
   */
  private async verify(secret: string, stored: string, address: string, clientId: string): Promise<SecretVerdict> {
    try {
      return await this.secrets.verify(secret, stored);
    } catch (error) {
      if (!(error instanceof UndecryptableValueError)) throw error;
      await this.limits.refuse(address, clientId).catch((refusal: unknown) => {
        if (refusal instanceof RateLimitedError) throw refusal;
      });
      throw credentialsUnavailable("check the application's secret", error);
    }
  }

  private newSecret(): NewSecret {
    const value = randomBytes(32).toString('base64url');
    return { value, hash: this.secrets.hash(value) };
  }
}

interface NewSecret {
  value: string;
  hash: string;
}

async function insertApplication(
  tx: Store,
  organizationName: string,
  secret: NewSecret,
): Promise<{ application: Application; credentials: NewApplicationCredentials }> {
  const now = new Date().toISOString();
  let organization = await tx.findOrganizationByName(organizationName);
  if (!organization) {
    organization = { id: randomUUID(), name: organizationName, created_at: now };
    await tx.createOrganization(organization);
  }
  const application: Application = { id: randomUUID(), organization_id: organization.id, client_id: randomUUID(), secret_hash: secret.hash, created_at: now };
  await tx.createApplication(application);
  return { application, credentials: { organization_id: organization.id, client_id: application.client_id, client_secret: secret.value } };
}

import { randomBytes, randomUUID } from 'node:crypto';
import { AuthenticationError } from '../errors.ts';
import { hashSecret, verifySecret } from '../security/secret-hash.ts';
import type { Application, Store } from '../stores/types.ts';

export interface NewApplicationCredentials {
  organization_id: string;
  client_id: string;
  /** Shown once; only its salted hash is stored. */
  client_secret: string;
}

/** Name of the organization the first start of an empty install creates. */
const FIRST_ORGANIZATION_NAME = 'local';
/** Advisory-lock key serialising application creation across instances (and admin runs) sharing a database. */
const APPLICATIONS_LOCK = 7_263_105;

/**
 * Adds an application to the organization of that name, creating the organization when there is none,
 * and returns its credentials (the only time the secret is seen). Instances and admin runs doing this
 * at once are serialised, so a name never yields two organizations.
 */
export async function createApplication(store: Store, organizationName: string): Promise<NewApplicationCredentials> {
  const secret = await newSecret();
  return store.transaction((tx) => insertApplication(tx, organizationName, secret), APPLICATIONS_LOCK);
}

/**
 * The first application of an empty install, or null when the store has one. Several instances starting
 * together on an empty database are serialised by the lock, so exactly one of them creates it.
 */
export async function createFirstApplication(store: Store): Promise<NewApplicationCredentials | null> {
  // The usual start finds an application: answer without hashing a secret or taking the lock.
  if ((await store.countApplications()) > 0) return null;
  const secret = await newSecret();
  return store.transaction(async (tx) => ((await tx.countApplications()) > 0 ? null : insertApplication(tx, FIRST_ORGANIZATION_NAME, secret)), APPLICATIONS_LOCK);
}

/** The application these credentials belong to, or the 401 of SPEC 7 (the same answer whichever part is wrong). */
export async function authenticateApplication(store: Store, clientId: string, clientSecret: string): Promise<Application> {
  const application = await store.findApplicationByClientId(clientId);
  if (!application || !(await verifySecret(clientSecret, application.secret_hash))) throw new AuthenticationError();
  return application;
}

interface NewSecret {
  value: string;
  hash: string;
}

/** Made before the transaction: scrypt is slow, and the database's lock must not wait for it. */
async function newSecret(): Promise<NewSecret> {
  const value = randomBytes(32).toString('base64url');
  return { value, hash: await hashSecret(value) };
}

async function insertApplication(tx: Store, organizationName: string, secret: NewSecret): Promise<NewApplicationCredentials> {
  const now = new Date().toISOString();
  let organization = await tx.findOrganizationByName(organizationName);
  if (!organization) {
    organization = { id: randomUUID(), name: organizationName, created_at: now };
    await tx.createOrganization(organization);
  }
  const clientId = randomUUID();
  await tx.createApplication({ id: randomUUID(), organization_id: organization.id, client_id: clientId, secret_hash: secret.hash, created_at: now });
  return { organization_id: organization.id, client_id: clientId, client_secret: secret.value };
}

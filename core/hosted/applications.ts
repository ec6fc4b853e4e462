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

/** Creates an organization with one application and returns its credentials (the only time the secret is seen). */
export async function createApplication(store: Store, organizationName: string): Promise<NewApplicationCredentials> {
  const now = new Date().toISOString();
  const organizationId = randomUUID();
  const clientId = randomUUID();
  const clientSecret = randomBytes(32).toString('base64url');
  await store.createOrganization({ id: organizationId, name: organizationName, created_at: now });
  await store.createApplication({ id: randomUUID(), organization_id: organizationId, client_id: clientId, secret_hash: await hashSecret(clientSecret), created_at: now });
  return { organization_id: organizationId, client_id: clientId, client_secret: clientSecret };
}

/** The application these credentials belong to, or the 401 of SPEC 7 (the same answer whichever part is wrong). */
export async function authenticateApplication(store: Store, clientId: string, clientSecret: string): Promise<Application> {
  const application = await store.findApplicationByClientId(clientId);
  if (!application || !(await verifySecret(clientSecret, application.secret_hash))) throw new AuthenticationError();
  return application;
}

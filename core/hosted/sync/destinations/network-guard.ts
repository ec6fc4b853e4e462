import type { EgressPolicy } from '../../../security/egress/egress-policy.ts';
import type { DatabaseIdentity } from './database-identity.ts';

/**
 * What a hosted destination's connections obey: the egress policy for its host, and never the
 * server's own PostgreSQL database (`ownDatabase` says which that is; absent on SQLite).
 */
export interface NetworkGuard {
  egress: EgressPolicy;
  ownDatabase?: () => Promise<DatabaseIdentity>;
}

import type { DataKeyring } from '../../security/data-keyring.ts';
import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { Store } from '../../stores/types.ts';
import type { DeclarativeSourceTypes } from '../cloud-api/declarative-source-types.ts';
import type { DeclarativeTable } from '../cloud-api/declarative-table.ts';
import type { SourceKinds } from '../cloud-api/source-kinds.ts';
import type { DeploymentUpstreams } from '../deployment-upstreams.ts';
import type { HostedConnectors } from '../hosted-connectors.ts';
import { EmbeddedOAuth } from './embedded-oauth.ts';
import { OAuthApps } from './oauth-apps.ts';
import { OAuthFlows } from './oauth-flows.ts';
import { OAuthSecrets } from './oauth-secrets.ts';
import { OAuthSourceTypes } from './oauth-source-types.ts';
import { OAuthStates } from './oauth-states.ts';
import { PublicOAuth } from './public-oauth.ts';

/** End users connecting their accounts by consent, through the public API and the widget. */
export interface HostedOAuth {
  /** Apps per workspace or organization, and `initiateOAuth`. */
  api: PublicOAuth;
  /** The widget's consents, and embedded sources made with their secrets. */
  embedded: EmbeddedOAuth;
  /** Consent URLs, and the callback both flows come back to. */
  flows: OAuthFlows;
  /** What consents granted, until a source takes it. */
  secrets: OAuthSecrets;
}

export interface HostedOAuthDependencies {
  store: Store;
  /** The cloud API's database, where the OAuth tables are (migrateOAuth). */
  cloudDb: SqlDriver;
  keyring: DataKeyring;
  sourceKinds: SourceKinds;
  declarativeTypes: DeclarativeSourceTypes;
  definitions: DeclarativeTable;
  upstreams: DeploymentUpstreams;
  connectors: HostedConnectors;
  /** For the lifetimes of states and secrets; tests move it. */
  clock?: () => number;
}

export function createHostedOAuth(deps: HostedOAuthDependencies): HostedOAuth {
  const clock = deps.clock ?? Date.now;
  const apps = new OAuthApps(deps.cloudDb, deps.keyring, clock);
  const secrets = new OAuthSecrets(deps.cloudDb, deps.keyring, clock);
  const types = new OAuthSourceTypes(deps.sourceKinds, deps.declarativeTypes, deps.definitions, deps.store);
  const flows = new OAuthFlows(apps, new OAuthStates(deps.cloudDb, deps.keyring, clock), secrets, types, deps.upstreams);
  return {
    api: new PublicOAuth(deps.store, apps, types, flows),
    embedded: new EmbeddedOAuth(types, flows, secrets, deps.connectors),
    flows,
    secrets,
  };
}

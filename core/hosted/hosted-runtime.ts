import { Runtime } from '../runtime/runtime.ts';
import { BUILTIN_CONNECTORS } from '../builtin-connectors.ts';
import { loadDataKeyring, type DataKeyring } from '../security/data-keyring.ts';
import { createStore } from '../stores/create-store.ts';
import type { Store } from '../stores/types.ts';
import { HostedConnectors } from './hosted-connectors.ts';
import { TokenService } from './token-service.ts';
import { LocalWorkspaceDirectory, type CloudWorkspaceDirectory } from './workspaces.ts';

export interface HostedRuntimeOptions {
  /** PostgreSQL when set; else SQLite under `dataDir`. */
  databaseUrl?: string;
  /** PostgreSQL schema to use (tests give each run its own). */
  databaseSchema?: string;
  dataDir: string;
  /** Issuer of the tokens: the public address of the service. */
  issuer: string;
  /** Upstream API root per connector type (PLUGBOARD_<TYPE>_BASE_URL). */
  baseUrls: Record<string, string | undefined>;
  env?: NodeJS.ProcessEnv;
  cloud?: CloudWorkspaceDirectory;
}

/** Everything the hosted service runs on, built once at start: what `server/` adapts to HTTP. */
export interface HostedRuntime {
  store: Store;
  keyring: DataKeyring;
  tokens: TokenService;
  runtime: Runtime;
  connectors: HostedConnectors;
  cloud: CloudWorkspaceDirectory;
  close(): Promise<void>;
}

export async function createHostedRuntime(options: HostedRuntimeOptions): Promise<HostedRuntime> {
  const store = await createStore({ databaseUrl: options.databaseUrl, dataDir: options.dataDir, schema: options.databaseSchema });
  const keyring = loadDataKeyring(options.env ?? process.env, options.dataDir);
  const runtime = new Runtime();
  for (const specifier of BUILTIN_CONNECTORS) await runtime.loadConnector(specifier);
  return {
    store,
    keyring,
    runtime,
    tokens: new TokenService(store, keyring, options.issuer),
    connectors: new HostedConnectors(store, keyring, runtime, options.baseUrls),
    cloud: options.cloud ?? new LocalWorkspaceDirectory(),
    close: () => store.close(),
  };
}

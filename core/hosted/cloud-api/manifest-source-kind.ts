import { checkCredentials } from '../../execution/check-credentials.ts';
import type { CompiledConnector } from '../../plugins/compiled-connector.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import type { EgressPolicy } from '../../security/egress/egress-policy.ts';
import { airbyteSourceEndpoint } from './airbyte-endpoint.ts';
import { secretFieldsOf } from './configuration-secrets.ts';
import type { Manifest } from './declarative-manifest.ts';
import type { ManifestSourceKind } from './source-kinds.ts';

export interface ManifestKindShape {
  name: string;
  definitionId: string;
  /** The manifest as published (where its requests go: see airbyteSourceEndpoint). */
  manifest: Manifest;
}

/**
 * The source kind of an Airbyte manifest registered in the runtime as `plugin`: its configuration is
 * the manifest's `config` (with `sourceType` beside it), checked against the spec, its secrets masked,
 * its check the manifest's check stream read through the tenant egress policy (a refused credential
 * is the 400 `credentials_rejected`). A check that renews a single-use refresh token answers the new
 * configuration, which the source keeps.
 */
export function manifestSourceKind(runtime: Runtime, plugin: CompiledConnector, egress: EgressPolicy, shape: ManifestKindShape): ManifestSourceKind {
  const runner = plugin.manifest;
  if (!runner) throw new Error(`${plugin.type} is not an Airbyte manifest`);
  const configOf = ({ sourceType: _type, ...config }: Record<string, unknown>) => config;
  // The spec's `airbyte_secret` fields, and the usual credential names.
  const secrets = secretFieldsOf(runner.spec.configSchema);
  const endpoint = airbyteSourceEndpoint(shape.manifest, secrets);
  return {
    name: shape.name,
    definitionId: shape.definitionId,
    connectorType: plugin.type,
    secrets,
    manifestConfigOf: configOf,
    credentialsOf() {
      throw new Error(`${shape.name} is an Airbyte manifest: it reads with its configuration, not with credentials`);
    },
    endpoint: (configuration) => endpoint(configOf(configuration)),
    validate(configuration, loc) {
      runner.checkConfig(configOf(configuration), loc);
    },
    async check(configuration, actor) {
      let renewed: Record<string, unknown> | undefined;
      const onConfigChanged = (config: Record<string, unknown>) => {
        renewed = config;
      };
      const execute = runtime.executor(plugin.type, { config: configOf(configuration), egress, onConfigChanged }, { connectorId: actor.id, mode: 'hosted' });
      await checkCredentials(plugin, execute);
      return renewed;
    },
  };
}

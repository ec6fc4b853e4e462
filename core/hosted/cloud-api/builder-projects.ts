import type { SqlDriver } from '../../stores/sql-driver.ts';
import type { JsonSchema } from '../../sdk/index.ts';
import type { ConfigBuilderProject, ConfigBuilderProjectRequest, ConfigBuilderTestingValuesUpdate } from '../types.generated.ts';
import { maskSecrets, secretFieldsOf } from './configuration-secrets.ts';
import type { ConfigurationVault } from './configuration-vault.ts';
import type { PublicDeclarativeSources } from './declarative-sources.ts';

/**
 * The config API's connector builder projects, as far as publishing a definition with testing values
 * needs them (what PyAirbyte's publish_custom_source_definition calls): each declarative definition
 * has one project, of the definition's own id, holding its testing values, encrypted at rest as
 * configurations are and never answered with a secret in the clear.
 */
export class BuilderProjects {
  constructor(
    private readonly db: SqlDriver,
    private readonly definitions: PublicDeclarativeSources,
    private readonly vault: ConfigurationVault,
  ) {}

  /** The project of a definition of the workspace; another workspace's, or one of another organization, is not found. */
  async forDefinition(organizationId: string, input: ConfigBuilderProjectRequest): Promise<ConfigBuilderProject> {
    const definition = await this.definitions.get(organizationId, input.workspaceId, input.actorDefinitionId);
    return { builderProjectId: definition.id, workspaceId: input.workspaceId.toLowerCase() };
  }

  /** Replaces the project's testing values; answers them with every secret masked (the spec's and the definition's own). */
  async updateTestingValues(organizationId: string, input: ConfigBuilderTestingValuesUpdate): Promise<Record<string, unknown>> {
    const definition = await this.definitions.get(organizationId, input.workspaceId, input.builderProjectId);
    const sealed = this.vault.seal(input.testingValues);
    await this.db.run(
      `INSERT INTO cloud_builder_testing_values (definition_id, workspace_id, key_id, ciphertext, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (definition_id) DO UPDATE SET key_id = excluded.key_id, ciphertext = excluded.ciphertext, updated_at = excluded.updated_at`,
      [definition.id, input.workspaceId.toLowerCase(), sealed.key_id, sealed.ciphertext, Date.now()],
    );
    const given = input.spec.connectionSpecification ?? input.spec.connection_specification;
    const secrets = new Set([...secretFieldsOf(given as JsonSchema | undefined), ...secretFieldsOf(configSchemaOf(definition.manifest))]);
    return maskSecrets(input.testingValues, secrets);
  }
}

/** Where a manifest describes its configuration: Airbyte's `spec.connection_specification`, Plugboard's `config`. */
function configSchemaOf(manifest: Record<string, unknown>): JsonSchema | undefined {
  const spec = manifest.spec as { connection_specification?: JsonSchema } | undefined;
  return spec?.connection_specification ?? (manifest.config as JsonSchema | undefined);
}

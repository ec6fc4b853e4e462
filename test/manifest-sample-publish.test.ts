/**
 * Real manifest-only connectors published with the cloud client's publishCustomSourceDefinition, as
 * PyAirbyte's publish_custom_source_definition does: PLUGBOARD_MANIFEST_SAMPLE=<a directory of
 * Airbyte's manifest.yaml files, renamed <connector>.yaml>. The sample is read at test time only.
 * Each one the loader takes is published and answered as stored; each it refuses is an InputError
 * before any call, naming what stops it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudWorkspace, InputError } from '../core/cloud-client/index.ts';
import { loadManifest } from '../core/manifests/index.ts';
import { bearer, type HostedFixture, startHostedFixture } from './helpers/hosted-fixture.ts';
import { publicAccessToken } from './helpers/public-api-calls.ts';

const sample = process.env.PLUGBOARD_MANIFEST_SAMPLE;
const sampleDir = sample && existsSync(sample) && statSync(sample).isDirectory() ? sample : undefined;
/** Published one after another: enough to cover the sample's variety without a long run. */
const AT_MOST = Number(process.env.PLUGBOARD_MANIFEST_SAMPLE_PUBLISH ?? 60);

describe.skipIf(!sampleDir)('real manifests published with publishCustomSourceDefinition (PLUGBOARD_MANIFEST_SAMPLE)', { timeout: 600_000 }, () => {
  let fx: HostedFixture;
  let workspace: CloudWorkspace;

  beforeAll(async () => {
    // A few of Airbyte's manifests are over a MiB: the deployment raises PLUGBOARD_BODY_LIMIT_BYTES for them.
    fx = await startHostedFixture('sqlite', { config: { bodyLimitBytes: 8 * 1024 * 1024 } });
    const token = await publicAccessToken(fx);
    const { workspaceId } = await fx.http.post('v1/workspaces', { headers: bearer(token), json: { name: 'sample' } }).json<{ workspaceId: string }>();
    workspace = new CloudWorkspace({ workspaceId, clientId: fx.clientId, clientSecret: fx.clientSecret, apiRoot: `${fx.server.url}/v1` });
  }, 60_000);
  afterAll(() => fx?.close());

  it('publishes each manifest the loader takes, and refuses the others before any call', async () => {
    const files = readdirSync(sampleDir!)
      .filter((name) => name.endsWith('.yaml'))
      .sort()
      .slice(0, AT_MOST);
    let published = 0;
    let refused = 0;
    for (const file of files) {
      const manifestYaml = readFileSync(join(sampleDir!, file), 'utf8');
      const name = file.replace(/\.yaml$/, '');
      let loads = true;
      try {
        loadManifest(manifestYaml, { name });
      } catch {
        loads = false;
      }
      if (loads) {
        const definition = await workspace.publishCustomSourceDefinition(name, { manifestYaml });
        expect(definition, file).toMatchObject({ name, definitionType: 'yaml', version: 1 });
        expect((await workspace.getCustomSourceDefinition(definition.definitionId, 'yaml')).manifest, file).toMatchObject({ type: 'DeclarativeSource' });
        published++;
      } else {
        await expect(workspace.publishCustomSourceDefinition(name, { manifestYaml }), file).rejects.toBeInstanceOf(InputError);
        refused++;
      }
    }
    console.log(`manifest sample publish: ${published} published, ${refused} refused before any call, of ${files.length}`);
    expect(published + refused).toBe(files.length);
  });
});

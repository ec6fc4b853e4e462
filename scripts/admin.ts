/**
 * Administration of a Plugboard deployment (same settings as `npm start`: DATABASE_URL with
 * PLUGBOARD_DATA_KEYS, or PLUGBOARD_DATA_DIR).
 *
 *   npm run admin -- create-application --organization <name>   prints {"organization_id","client_id","client_secret"};
 *                                                                 adds the application to the organization of that
 *                                                                 name, creating it when there is none
 *   npm run admin -- rotate-signing-key                           new token-signing key; live tokens stay valid
 */
import { Command } from 'commander';
import type { HostedRuntime } from '../core/hosted/hosted-runtime.ts';
import { configFromEnv } from '../server/config.ts';
import { exitOnConfigurationError } from '../server/exit-on-configuration-error.ts';

async function withHosted<T>(work: (hosted: HostedRuntime) => Promise<T>): Promise<T> {
  const config = configFromEnv();
  // Loaded once the settings passed: a refused setting ends the command at once, not after the whole runtime loads.
  const [{ createHostedRuntime }, { BUILTIN_CONNECTORS }] = await Promise.all([import('../core/hosted/hosted-runtime.ts'), import('../connectors/builtin.ts')]);
  const hosted = await createHostedRuntime({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    issuer: config.publicUrl,
    builtins: BUILTIN_CONNECTORS,
    baseUrls: config.baseUrls,
  });
  try {
    return await work(hosted);
  } finally {
    await hosted.close();
  }
}

const program = new Command().name('npm run admin --');
program
  .command('create-application')
  .description(
    'Create application credentials in the organization of that name (created when there is none, so running it again adds ' +
      'another application to the same organization); prints {"organization_id","client_id","client_secret"}: the secret is shown once and stored hashed.',
  )
  .requiredOption('--organization <name>', 'organization name: an existing one gets the new application, a new one is created')
  .action(async ({ organization }: { organization: string }) => {
    if (organization.trim() === '') program.error('--organization must name an organization');
    console.log(JSON.stringify(await withHosted((hosted) => hosted.applications.create(organization))));
  });
program
  .command('rotate-signing-key')
  .description('Start signing tokens with a new key; the previous key keeps verifying until its tokens expire.')
  .action(async () => {
    const kid = await withHosted((hosted) => hosted.tokens.rotateSigningKey());
    console.log(JSON.stringify({ kid }));
  });
await exitOnConfigurationError('admin: ', () => program.parseAsync());

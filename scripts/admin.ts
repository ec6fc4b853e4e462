/**
 * Administration of a Plugboard deployment (same settings as `npm start`: DATABASE_URL or PLUGBOARD_DATA_DIR).
 *
 *   npm run admin -- create-application --organization <name>   prints {"organization_id","client_id","client_secret"}
 *   npm run admin -- rotate-signing-key                           new token-signing key; live tokens stay valid
 */
import { Command } from 'commander';
import { createApplication } from '../core/hosted/applications.ts';
import { createHostedRuntime } from '../core/hosted/hosted-runtime.ts';
import { configFromEnv } from '../server/config.ts';

async function withHosted<T>(work: (hosted: Awaited<ReturnType<typeof createHostedRuntime>>) => Promise<T>): Promise<T> {
  const config = configFromEnv();
  const hosted = await createHostedRuntime({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, issuer: config.publicUrl, baseUrls: config.baseUrls });
  try {
    return await work(hosted);
  } finally {
    await hosted.close();
  }
}

const program = new Command().name('npm run admin --');
program
  .command('create-application')
  .description('Create an organization with application credentials; the secret is printed once and stored hashed.')
  .requiredOption('--organization <name>', 'organization name')
  .action(async ({ organization }: { organization: string }) => {
    console.log(JSON.stringify(await withHosted((hosted) => createApplication(hosted.store, organization))));
  });
program
  .command('rotate-signing-key')
  .description('Start signing tokens with a new key; the previous key keeps verifying until its tokens expire.')
  .action(async () => {
    const kid = await withHosted((hosted) => hosted.tokens.rotateSigningKey());
    console.log(JSON.stringify({ kid }));
  });
await program.parseAsync();

/** `npm start`: the hosted service on HOST:PORT, state in SQLite under PLUGBOARD_DATA_DIR or PostgreSQL at DATABASE_URL. */
import { KeyConfigurationError } from '../core/security/key-configuration-error.ts';
import { configFromEnv } from './config.ts';
import { startServer, type RunningServer } from './start.ts';

const config = configFromEnv();
let server: RunningServer;
try {
  server = await startServer(config);
} catch (error) {
  // A deployment mistake the operator must fix: say what, without a stack trace in the way.
  if (!(error instanceof KeyConfigurationError)) throw error;
  console.error(`Plugboard did not start: ${error.message}`);
  process.exit(1);
}
if (server.firstApplication) {
  console.log('First start of an empty install: application credentials for local use (the secret is shown only now):');
  console.log(JSON.stringify(server.firstApplication));
}
console.log(`Plugboard listening on ${server.url} (${config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}); API description at ${server.url}/openapi.json`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}

/** `npm start`: the hosted service on HOST:PORT, state in SQLite under PLUGBOARD_DATA_DIR or PostgreSQL at DATABASE_URL. */
import { baseUrlVariable } from './base-url-settings.ts';
import { configFromEnv } from './config.ts';
import { exitOnConfigurationError } from './exit-on-configuration-error.ts';

const { config, server } = await exitOnConfigurationError('Plugboard did not start: ', async () => {
  const config = configFromEnv();
  // The server's modules load only once the settings are known good: a misconfigured start fails at once.
  const { startServer } = await import('./start.ts');
  return { config, server: await startServer(config) };
});
if (server.firstApplication) {
  console.log('First start of an empty install: application credentials for local use (the secret is shown only now):');
  console.log(JSON.stringify(server.firstApplication));
}
for (const { type, version, upstream, configured, perConfiguration } of server.hosted.loadedConnectors) {
  const source = configured ? baseUrlVariable(type) : `default; ${baseUrlVariable(type)} unset`;
  console.log(`Connector ${type} ${version} calls ${upstream}${perConfiguration ? '' : ` (${source})`}`);
}
console.log(`${config.egress.describe()}.`);
console.log(
  `Plugboard listening on ${server.url} (${config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}); API description at ${server.url}/openapi.json`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}

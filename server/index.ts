/**
 * `plugboard/server`: the hosted server as a library, for a deployment that starts it from its own
 * code (settings read from the environment, or built by hand) instead of `npm start`.
 */
export { configFromEnv, type ServerConfig } from './config.ts';
export { startServer, type RunningServer, type StartOptions } from './start.ts';

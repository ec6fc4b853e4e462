/** Running a loaded manifest's streams: records and state as Airbyte's CDK reads them, and the connection check. */
export { checkConnection, type CheckResult } from './check-connection.ts';
export { ManifestReadError, UpstreamCredentialsRefusedError } from './read-errors.ts';
export type { ConfigUpdate, ReadLimits, RuntimeOptions } from './read-runtime.ts';
export { type ReadMessage, type ReadOptions, readStream } from './read-stream.ts';
export { NO_CURSOR_STATE } from './stream-reader.ts';
export { type AirbyteStreamState, type StreamState, streamStateOf, toAirbyteStreamState } from './stream-state.ts';

/** A local REST API for declarative-connector (manifest) tests and benchmarks. */
export { RestUpstream, type RestUpstreamOptions, type UpstreamFault, type UpstreamRequest } from './server.ts';
export type { UpstreamAuth } from './auth.ts';
export { EPOCH_MS, type Item, type Project, type Task } from './records.ts';

import type { PublicConnection, PublicJob } from '../../core/hosted/types.generated.ts';

/** Connections whose latest job failed (the job list is newest first). */
export function failingConnections(connections: PublicConnection[], jobs: PublicJob[]): Set<PublicConnection> {
  const latest = new Map<string, PublicJob>();
  for (const job of jobs) if (!latest.has(job.connectionId)) latest.set(job.connectionId, job);
  return new Set(connections.filter((connection) => ['failed', 'incomplete'].includes(latest.get(connection.connectionId)?.status ?? '')));
}

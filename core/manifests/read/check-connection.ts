/**
 * The CDK's CheckStream: each stream it names is read for its first page (first partition, first
 * slice). A refused credential (401/403, a refused login or token renewal) is a 400
 * `credentials_rejected` naming the stream; any other failure (the upstream down, rate limits) is
 * thrown as it came, since it says nothing about the credentials.
 */
import { BadRequestError, CredentialsExpiredError } from '../../errors.ts';
import type { LoadedManifest } from '../load-manifest.ts';
import { UpstreamCredentialsRefusedError } from './read-errors.ts';
import { createRuntime, type RuntimeOptions } from './read-runtime.ts';
import { findStream, runStream } from './read-stream.ts';

export interface CheckResult {
  /** The streams read, each with whether its first page had a record. */
  streams: Array<{ name: string; records: boolean }>;
}

export async function checkConnection(manifest: LoadedManifest, options: RuntimeOptions): Promise<CheckResult> {
  const runtime = createRuntime(options);
  const streams: CheckResult['streams'] = [];
  for (const name of manifest.source.check.stream_names) {
    const stream = findStream(manifest, name);
    let records = false;
    try {
      for await (const message of runStream(stream, runtime, { probe: true })) {
        if (message.type === 'record') {
          records = true;
          break;
        }
      }
    } catch (error) {
      if (error instanceof UpstreamCredentialsRefusedError || error instanceof CredentialsExpiredError) {
        throw new BadRequestError(`The upstream rejected the credentials while reading ${name}: ${error.detail}`, 'credentials_rejected');
      }
      throw error;
    }
    streams.push({ name, records });
  }
  return { streams };
}

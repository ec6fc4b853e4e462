import { randomUUID } from 'node:crypto';
import { PlugboardError } from '../../errors.ts';
import type { ConfigCheckConnectionRead } from '../types.generated.ts';

const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * Runs a check as the config API reports one: a synchronous job whose verdict is `status`. A refusal
 * (a 400: the system said no) is a verdict, the job succeeded; anything else that stops the check
 * (the system unreachable, a timeout) fails the job too. Either way the answer is a 200 saying why.
 */
export async function checkConnectionRead(
  configType: ConfigCheckConnectionRead['jobInfo']['configType'],
  configId: string,
  check: () => Promise<void>,
): Promise<ConfigCheckConnectionRead> {
  const createdAt = Date.now();
  const job = (succeeded: boolean) => ({
    id: randomUUID(),
    configType,
    configId,
    createdAt: seconds(createdAt),
    endedAt: seconds(Date.now()),
    succeeded,
    connectorConfigurationUpdated: false,
  });
  try {
    await check();
    return { status: 'succeeded', jobInfo: job(true) };
  } catch (error) {
    const refused = error instanceof PlugboardError && error.status === 400;
    return { status: 'failed', message: error instanceof Error ? error.message : String(error), jobInfo: job(refused) };
  }
}

import { BadRequestError, PlugboardError } from '../errors.ts';
import type { CompiledConnector } from '../plugins/compiled-connector.ts';
import type { ExecuteFunction } from './types.ts';

/** `accepted`: the upstream took the credentials; `unchecked`: the connector declares no check. */
export type CredentialCheckResult = 'accepted' | 'unchecked';

/**
 * Runs the connector's declared credential check through `execute`. Only a failure whose upstream
 * code the check lists as a refused credential is a 400 `credentials_rejected`; any other failure
 * (the upstream down, rate limiting, a timeout) says nothing about the credentials and is thrown as
 * it came, so a caller never discards good credentials because of an outage.
 */
export async function checkCredentials(connector: CompiledConnector, execute: ExecuteFunction): Promise<CredentialCheckResult> {
  const { check } = connector.definition;
  if (!check) return 'unchecked';
  try {
    await execute({ entity: check.entity, action: check.action, params: check.params ?? {} });
  } catch (error) {
    if (!isRefusal(error, check.rejectedCodes)) throw error;
    throw new BadRequestError(
      `The ${connector.type} upstream rejected the credentials (${error.error_code}); check the token and the account it belongs to`,
      'credentials_rejected',
    );
  }
  return 'accepted';
}

/** A 429 is never a refusal, whatever its code: the upstream did not look at the credentials yet. */
function isRefusal(error: unknown, rejectedCodes: string[]): error is PlugboardError {
  return error instanceof PlugboardError && error.status !== 429 && error.error_code !== undefined && rejectedCodes.includes(error.error_code);
}

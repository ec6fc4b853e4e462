import { checkCredentials } from '../../execution/check-credentials.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import type { DeploymentUpstreams } from '../deployment-upstreams.ts';
import type { Credentials } from '../../sdk/index.ts';
import { credentialKeys, type OAuthTokens } from '../oauth/oauth-tokens.ts';

/** Runs a connector type's declared credential check against the deployment's upstream: refused credentials are a 400. */
export type UpstreamCheck = (connectorType: string, actorId: string, credentials: Credentials) => Promise<void>;

/**
 * The check of each type against its deployment upstream (PLUGBOARD_<TYPE>_BASE_URL), as stored
 * connectors are checked: from the source's renewed tokens, and a renewal kept, since a rotated
 * refresh token sent twice revokes the grant.
 */
export function upstreamCheck(runtime: Runtime, upstreams: DeploymentUpstreams, oauthTokens: OAuthTokens): UpstreamCheck {
  return async (type, actorId, credentials) => {
    await upstreams.checkTokenUrl(type, credentials, 'configuration.credentials.token_url');
    const config = await oauthTokens.instanceConfig(credentialKeys.source(actorId), upstreams.instanceConfig(type, credentials));
    const execute = runtime.executor(type, config, { connectorId: actorId, mode: 'hosted' });
    await checkCredentials(runtime.plugin(type), execute);
  };
}

import { ConfigurationError } from '../core/configuration-error.ts';
import { httpUrlSetting } from './env-settings.ts';
import type { OAuthUrlSettings } from '../core/hosted/deployment-upstreams.ts';
import { typeVariable } from '../core/hosted/type-variables.ts';

/** The variable that sets a connector type's upstream API root: `issue-tracker` → PLUGBOARD_ISSUE_TRACKER_BASE_URL. */
export function baseUrlVariable(type: string): string {
  return typeVariable(type, 'BASE_URL');
}

/** Each type's OAuth endpoints from PLUGBOARD_<TYPE>_AUTHORIZE_URL and _TOKEN_URL (undefined: the connector's declared ones). */
export function oauthUrlSettings(env: NodeJS.ProcessEnv, types: readonly string[]): Record<string, OAuthUrlSettings> {
  return Object.fromEntries(
    types.map((type) => [
      type,
      { authorizeUrl: httpUrlSetting(env, typeVariable(type, 'AUTHORIZE_URL')), tokenUrl: httpUrlSetting(env, typeVariable(type, 'TOKEN_URL')) },
    ]),
  );
}

/**
 * Each type's upstream API root from its PLUGBOARD_<TYPE>_BASE_URL, checked as every URL setting is
 * (undefined: the connector's default). Two types that differ only by `-` and `_` would read one
 * variable, so one would call the other's upstream with its credentials: that refuses the start.
 */
export function baseUrlSettings(env: NodeJS.ProcessEnv, types: readonly string[]): Record<string, string | undefined> {
  const typeByVariable = new Map<string, string>();
  for (const type of types) {
    const variable = baseUrlVariable(type);
    const other = typeByVariable.get(variable);
    if (other !== undefined) throw new ConfigurationError(`connector types "${other}" and "${type}" would share ${variable}: rename one of them`);
    typeByVariable.set(variable, type);
  }
  return Object.fromEntries([...typeByVariable].map(([variable, type]) => [type, httpUrlSetting(env, variable)]));
}

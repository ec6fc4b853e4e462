import { ConfigurationError } from '../core/configuration-error.ts';
import { httpUrlSetting } from './env-settings.ts';

/** The variable that sets a connector type's upstream API root: `issue-tracker` → PLUGBOARD_ISSUE_TRACKER_BASE_URL. */
export function baseUrlVariable(type: string): string {
  return `PLUGBOARD_${type.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_BASE_URL`;
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

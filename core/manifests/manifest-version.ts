/** The manifest versions Plugboard reads: from the oldest the CDK still reads to the newest major it knows. */
export const OLDEST_MANIFEST_VERSION = '0.29.0';
export const NEWEST_MANIFEST_MAJOR = 7;

const VERSION = /^(\d+)\.(\d+)\.(\d+)(?:[.+-][0-9A-Za-z.+-]*)?$/;

/**
 * What is wrong with a manifest's `version` (the CDK version it was written for), or undefined when it
 * is one Plugboard reads: `0.29.0` up to any `7.x.y` (pre-release and build suffixes allowed). Refused:
 * no version, a version that is not a `major.minor.patch` string (YAML reads `version: 6.4` as a
 * number), one older than 0.29.0 (which the CDK no longer reads either), and majors above 7, whose
 * components Plugboard does not know yet.
 */
export function versionProblem(version: unknown): string | undefined {
  const range = `${OLDEST_MANIFEST_VERSION} up to ${NEWEST_MANIFEST_MAJOR}.x`;
  if (version === undefined || version === null) return `\`version\` is missing: the CDK version the manifest was written for (${range})`;
  if (typeof version !== 'string') return `\`version\` must be a string such as "6.44.0", not ${JSON.stringify(version)}`;
  const parts = VERSION.exec(version);
  if (!parts) return `\`version\` ${JSON.stringify(version)} is not a version such as "6.44.0"`;
  const [major, minor] = [Number(parts[1]), Number(parts[2])];
  const [oldestMajor, oldestMinor] = OLDEST_MANIFEST_VERSION.split('.').map(Number) as [number, number];
  if (major < oldestMajor || (major === oldestMajor && minor < oldestMinor)) {
    return `version ${version} is older than ${OLDEST_MANIFEST_VERSION}, the oldest manifest version Airbyte's CDK still reads`;
  }
  if (major > NEWEST_MANIFEST_MAJOR) return `version ${version} is newer than the manifests Plugboard reads (${range})`;
  return undefined;
}

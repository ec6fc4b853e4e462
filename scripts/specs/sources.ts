/**
 * The official upstream API descriptions `npm run specs:fetch` downloads, where each comes from, and
 * the git-ignored cache it fills. A file keeps the name it has in the specs folder the conformance
 * tests also look for, so the cache and that folder are laid out alike.
 */
import { fileURLToPath } from 'node:url';

export const SPECS_CACHE_DIR = fileURLToPath(new URL('../../.specs-cache/', import.meta.url));

/** Replaces every source's origin: `<mirror>/<file>`, e.g. a local copy of the specs folder. */
export const SPECS_MIRROR_VARIABLE = 'PLUGBOARD_SPECS_MIRROR';

export interface SpecSource {
  /** Path in the cache (and in a mirror). */
  file: string;
  /** The official address, pinned to a tag or commit where the upstream has one. */
  url: string;
  /** Digest of the copy the conformance tests were checked against; another one is only warned about. */
  sha256: string;
  kind: 'json' | 'yaml';
}

function github(repository: string, ref: string, path: string): string {
  return `https://github.com/${repository}/raw/${ref}/${path}`;
}

// The slack-api-specs file last changed on 2020-10-06 and the repository has no release tags, so its default branch is the pin.
const AIRBYTE_COMMIT = '310e6cb6';
const AIRBYTE_OPENAPI = 'airbyte-api/server-api/src/main/openapi';

export const SPEC_SOURCES: readonly SpecSource[] = [
  {
    file: 'slack_web_openapi_v2.json',
    url: github('slackapi/slack-api-specs', 'master', 'web-api/slack_web_openapi_v2.json'),
    sha256: '742a5c977180a829df8767cf57bc417d99b3713583aee83741efb9c08ca731e7',
    kind: 'json',
  },
  {
    file: 'drive-v3-discovery.json',
    url: github('googleapis/google-api-python-client', 'v2.201.0', 'googleapiclient/discovery_cache/documents/drive.v3.json'),
    sha256: '9a15f3b0e37c5f1a99ee517f5e2372c4e12476207e4959dc6c36d083227d46ef',
    kind: 'json',
  },
  {
    file: 'airbyte/api_sdk.yaml',
    url: github('airbytehq/airbyte-platform', AIRBYTE_COMMIT, `${AIRBYTE_OPENAPI}/api_sdk.yaml`),
    sha256: '55ddc054e5b593c89689c97ed97a3ab5df6923e47161aaf453ecc9718a5424cb',
    kind: 'yaml',
  },
  {
    file: 'airbyte/api.yaml',
    url: github('airbytehq/airbyte-platform', AIRBYTE_COMMIT, `${AIRBYTE_OPENAPI}/api.yaml`),
    sha256: '8e04217c657308bd9c430a9c43806c555fbd817d7a3d69e0a38b8ce8202acdc9',
    kind: 'yaml',
  },
  {
    file: 'airbyte/config.yaml',
    url: github('airbytehq/airbyte-platform', AIRBYTE_COMMIT, `${AIRBYTE_OPENAPI}/config.yaml`),
    sha256: 'f56456f5f5320e9e67d002ef3adc4206824badd518904a5e10113235fbe02ac7',
    kind: 'yaml',
  },
];

/** The variants the conformance tests read, derived from the files above. */
export const SLACK_NOTOKEN_FILE = 'slack_web_openapi_v2.notoken.json';
export const DRIVE_PREFIXED_FILE = 'drive-v3-openapi3.from-discovery.prefixed.json';
export const driveConvertedFile = (revision: string) => `drive-v3-openapi3.from-discovery-${revision}.json`;

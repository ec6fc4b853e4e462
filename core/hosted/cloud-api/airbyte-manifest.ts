import { ConnectorLoadError, type ValidationIssue } from '../../errors.ts';
import { compileLoadedManifest } from '../../manifests/connector/compile-manifest.ts';
import { loadManifest, type LoadedManifest, ManifestLoadError, type ManifestProblem } from '../../manifests/index.ts';
import type { Loc } from './actor-kind.ts';
import type { Manifest } from './declarative-manifest.ts';

/**
 * Every problem of an Airbyte manifest to publish, as 400 issues under `loc`: what keeps the
 * interpreter from loading it (a Python custom component, a component it does not run, a reference
 * naming nothing...), each at its place in the manifest, and what keeps it from running as a
 * connector (a schema that does not compile). Loaded on a fresh Ajv: nothing of it stays.
 */
export function airbyteManifestIssues(manifest: Manifest, loc: Loc): ValidationIssue[] {
  let loaded: LoadedManifest;
  try {
    loaded = loadManifest(manifest);
  } catch (error) {
    if (error instanceof ManifestLoadError) return error.issues.map((problem) => issueOf(problem, loc));
    throw error;
  }
  try {
    compileLoadedManifest(loaded, 'manifest');
    return [];
  } catch (error) {
    if (error instanceof ConnectorLoadError) return error.problems.map((msg) => ({ loc, msg, type: 'value_error.manifest' }));
    throw error;
  }
}

function issueOf(problem: ManifestProblem, loc: Loc): ValidationIssue {
  return { loc: [...loc, ...placeOf(problem.path)], msg: problem.message, type: `value_error.manifest.${problem.kind}` };
}

const SEGMENT = /\.?([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;

/** A problem's place (`streams[3].retriever["a.b"]`, `(root)`) as a loc's segments; text it cannot read stays one segment. */
function placeOf(path: string): Loc {
  if (path === '(root)') return [];
  const segments: Loc = [];
  SEGMENT.lastIndex = 0;
  while (SEGMENT.lastIndex < path.length) {
    const match = SEGMENT.exec(path);
    if (!match) return [path];
    segments.push(match[1] ?? (match[2] !== undefined ? Number(match[2]) : (JSON.parse(match[3]!) as string)));
  }
  return segments;
}

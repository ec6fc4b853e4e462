import { ConnectorLoadError } from '../errors.ts';
import { formatPath, type PathSegment } from './json-values.ts';

/** What kind of problem stops a manifest from loading. */
export type ManifestProblemKind =
  /** Not YAML, or not a mapping. */
  | 'syntax'
  /** `type` is not DeclarativeSource, or `version` is missing or outside the versions Plugboard reads. */
  | 'source'
  /** A `$ref` or `#/…` reference that names nothing, or a cycle of references. */
  | 'reference'
  /** A Python custom component (`Custom…` type or `class_name`). */
  | 'custom_component'
  /** A component of Airbyte's declarative schema that Plugboard's interpreter does not run. */
  | 'unsupported_component'
  /** A `type` that no version of Airbyte's declarative schema has. */
  | 'unknown_component'
  /** A supported component used where it does not fit, or missing a field it needs. */
  | 'invalid';

/** One problem of a manifest, at a place in it. */
export interface ManifestProblem {
  kind: ManifestProblemKind;
  /** Where: `streams[3].retriever.paginator` (in the manifest once its references are resolved), `(root)` for the whole manifest. */
  path: string;
  /** The component type the problem is about, when it is about one (`CustomPaginationStrategy`, `AsyncRetriever`). */
  component?: string;
  message: string;
}

export function problemAt(kind: ManifestProblemKind, path: readonly PathSegment[], message: string, component?: string): ManifestProblem {
  return component === undefined ? { kind, path: formatPath(path), message } : { kind, path: formatPath(path), message, component };
}

export function describeProblem(problem: ManifestProblem): string {
  return `${problem.path}: ${problem.message}`;
}

/**
 * A declarative manifest that cannot be loaded, with every problem found (not only the first). It is a
 * ConnectorLoadError, so whatever reports connector loading reports it the same way; `issues` keeps
 * each problem's kind, place and component for tools (the manifest report counts blockers by type).
 */
export class ManifestLoadError extends ConnectorLoadError {
  readonly issues: ManifestProblem[];

  constructor(name: string, issues: ManifestProblem[]) {
    super(name, issues.map(describeProblem));
    this.name = 'ManifestLoadError';
    this.message = `Cannot load declarative manifest "${name}":\n  - ${this.problems.join('\n  - ')}`;
    this.issues = issues;
  }
}

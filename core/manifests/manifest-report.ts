import { loadManifest } from './load-manifest.ts';
import { ManifestLoadError, type ManifestProblem } from './manifest-load-error.ts';

/** One manifest to report on: its name (a file name) and its text. */
export interface ManifestFile {
  name: string;
  text: string;
}

/** What stops manifests: one row per component type (or problem kind, for problems about no component). */
export interface Blocker {
  /** A component type (`CustomPaginationStrategy`), a field (`DeclarativeStream.state_migrations`), or `(reference)`-style kinds. */
  blocker: string;
  kind: ManifestProblem['kind'];
  /** How many manifests it stops. */
  manifests: number;
  /** How many times it occurs across them. */
  occurrences: number;
}

export interface ManifestReport {
  total: number;
  loaded: number;
  /** Manifests that do not load, each with its problems. */
  blocked: Array<{ name: string; problems: ManifestProblem[] }>;
  /** Most manifests stopped first. */
  blockers: Blocker[];
  /** Manifests that stop for one blocker only, by blocker: what supporting it alone would win. */
  soleBlockers: Record<string, number>;
}

/** Loads each manifest and counts what stops those that do not load. */
export function reportOnManifests(files: readonly ManifestFile[]): ManifestReport {
  const blocked: ManifestReport['blocked'] = [];
  for (const file of files) {
    try {
      loadManifest(file.text, { name: file.name });
    } catch (error) {
      if (!(error instanceof ManifestLoadError)) throw error;
      blocked.push({ name: file.name, problems: error.issues });
    }
  }
  const rows = new Map<string, Blocker>();
  const soleBlockers: Record<string, number> = {};
  for (const { problems } of blocked) {
    const keys = new Map<string, ManifestProblem['kind']>();
    for (const problem of problems) {
      const key = blockerOf(problem);
      const row = rows.get(key) ?? { blocker: key, kind: problem.kind, manifests: 0, occurrences: 0 };
      row.occurrences += 1;
      if (!keys.has(key)) row.manifests += 1;
      keys.set(key, problem.kind);
      rows.set(key, row);
    }
    if (keys.size === 1) {
      const [key] = keys.keys();
      soleBlockers[key!] = (soleBlockers[key!] ?? 0) + 1;
    }
  }
  const blockers = [...rows.values()].sort((a, b) => b.manifests - a.manifests || b.occurrences - a.occurrences || a.blocker.localeCompare(b.blocker));
  return { total: files.length, loaded: files.length - blocked.length, blocked, blockers, soleBlockers };
}

function blockerOf(problem: ManifestProblem): string {
  return problem.component ?? `(${problem.kind})`;
}

/** The report as text: the figures, the blockers table, each blocked manifest's first problems, and a last line of JSON (`manifest-report {...}`). */
export function formatReport(report: ManifestReport, options: { problemsPerManifest?: number } = {}): string {
  const perManifest = options.problemsPerManifest ?? 3;
  const percent = (count: number) => (report.total === 0 ? '0.0' : ((100 * count) / report.total).toFixed(1));
  const lines = [`${report.loaded} of ${report.total} manifests load (${percent(report.loaded)}%); ${report.blocked.length} do not.`];
  if (report.blockers.length > 0) {
    const width = Math.max(...report.blockers.map((row) => row.blocker.length), 'blocker'.length);
    lines.push('', `${'blocker'.padEnd(width)}  manifests  occurrences  alone  kind`);
    for (const row of report.blockers) {
      const alone = report.soleBlockers[row.blocker] ?? 0;
      lines.push(
        `${row.blocker.padEnd(width)}  ${String(row.manifests).padStart(9)}  ${String(row.occurrences).padStart(11)}  ${String(alone).padStart(5)}  ${row.kind}`,
      );
    }
    lines.push('', 'Blocked manifests:');
    for (const { name, problems } of report.blocked) {
      lines.push(`  ${name} (${problems.length} problem${problems.length === 1 ? '' : 's'})`);
      for (const problem of problems.slice(0, perManifest)) lines.push(`    ${problem.path}: ${problem.message}`);
      if (problems.length > perManifest) lines.push(`    … ${problems.length - perManifest} more`);
    }
  }
  const summary = {
    total: report.total,
    loaded: report.loaded,
    blocked: report.blocked.length,
    loadedPercent: Number(percent(report.loaded)),
    blockers: Object.fromEntries(report.blockers.map((row) => [row.blocker, row.manifests])),
  };
  lines.push('', `manifest-report ${JSON.stringify(summary)}`);
  return lines.join('\n');
}

/**
 * The upstream's data, computed from an index rather than stored: 200,000 items cost no memory, and
 * the same settings give the same records on every run.
 */

/** Where `updated_at` starts; each later item is a minute newer, so date windows select known ranges. */
export const EPOCH_MS = Date.UTC(2024, 0, 1);
const MINUTE_MS = 60_000;

export interface Item {
  id: number;
  name: string;
  updated_at: string;
  project_id: number;
  tags: string[];
  metrics: { views: number; score: number };
}

export interface Project {
  id: number;
  name: string;
  created_at: string;
}

export interface Task {
  id: string;
  project_id: number;
  title: string;
  done: boolean;
}

export function itemAt(index: number, projects: number): Item {
  return {
    id: index + 1,
    name: `item ${index + 1}`,
    updated_at: new Date(EPOCH_MS + index * MINUTE_MS).toISOString(),
    project_id: (index % projects) + 1,
    tags: index % 3 === 0 ? ['red', 'blue'] : ['green'],
    metrics: { views: (index * 7) % 1000, score: (index % 100) / 10 },
  };
}

export function projectAt(index: number): Project {
  return { id: index + 1, name: `project ${index + 1}`, created_at: new Date(EPOCH_MS + index * 3_600_000).toISOString() };
}

export function taskOf(projectId: number, index: number): Task {
  return { id: `${projectId}-${index + 1}`, project_id: projectId, title: `task ${index + 1} of project ${projectId}`, done: index % 2 === 0 };
}

/** The index of the first item updated at or after `time` (ISO), clamped to [0, count]. */
export function firstItemFrom(time: string | null, count: number): number {
  if (time === null) return 0;
  const ms = Date.parse(time);
  if (Number.isNaN(ms)) return 0;
  return Math.min(count, Math.max(0, Math.ceil((ms - EPOCH_MS) / MINUTE_MS)));
}

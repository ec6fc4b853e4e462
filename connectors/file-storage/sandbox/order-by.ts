import { invalidValue } from './errors.ts';
import { FOLDER } from './mime.ts';
import type { DriveStore } from './store.ts';
import type { DriveFileRecord } from './types.ts';

/**
 * files.list `orderBy`: a comma-separated list of keys, each optionally followed by " desc"
 * ("folder,modifiedTime desc,name"). Unknown keys are 400 invalid. Items missing a sort value (e.g.
 * never viewed) sort as the smallest value. Ties fall back to the file id, so pages never overlap.
 * Without orderBy the sandbox uses "modifiedTime desc" (Drive documents no default order).
 */

type Key = (f: DriveFileRecord, store: DriveStore) => string | number;

const time = (t: string | undefined) => (t === undefined ? -Infinity : Date.parse(t));

function quotaBytes(f: DriveFileRecord): number {
  if (f.content) return f.content.kind === 'bytes' ? f.content.bytes.length : f.content.size;
  return 0;
}

/** "file 12" after "file 2": digit runs compare by value. */
function naturalKey(name: string): string {
  return name.toLowerCase().replace(/\d+/g, (d) => d.padStart(20, '0'));
}

const KEYS: Readonly<Record<string, Key>> = {
  createdTime: (f) => time(f.createdTime),
  // Folders first ascending (Drive's listing convention for the folder key).
  folder: (f) => (f.mimeType === FOLDER ? 0 : 1),
  modifiedByMeTime: (f) => time(f.modifiedByMeTime),
  modifiedTime: (f) => time(f.modifiedTime),
  // Plain code-unit order on the lower-cased name: "1, 12, 2, 22" as Drive documents.
  name: (f) => f.name.toLowerCase(),
  name_natural: (f) => naturalKey(f.name),
  quotaBytesUsed: (f) => quotaBytes(f),
  recency: (f) => Math.max(time(f.modifiedTime), time(f.modifiedByMeTime), time(f.viewedByMeTime), time(f.sharedWithMeTime)),
  sharedWithMeTime: (f) => time(f.sharedWithMeTime),
  starred: (f) => (f.starred ? 1 : 0),
  viewedByMeTime: (f) => time(f.viewedByMeTime),
};

export interface SortKey {
  key: string;
  desc: boolean;
}

export function parseOrderBy(text: string | undefined): SortKey[] {
  if (text === undefined) return [{ key: 'modifiedTime', desc: true }];
  const keys: SortKey[] = [];
  for (const part of text.split(',')) {
    const m = /^\s*([A-Za-z_]+)(?:\s+(asc|desc))?\s*$/i.exec(part);
    if (!m || !Object.hasOwn(KEYS, m[1] as string)) throw invalidValue('orderBy');
    keys.push({ key: m[1] as string, desc: (m[2] ?? '').toLowerCase() === 'desc' });
  }
  return keys;
}

export function sortFiles(files: DriveFileRecord[], keys: readonly SortKey[], store: DriveStore): DriveFileRecord[] {
  const fns = keys.map((k) => ({ fn: KEYS[k.key] as Key, sign: k.desc ? -1 : 1 }));
  return files.sort((a, b) => {
    for (const { fn, sign } of fns) {
      const x = fn(a, store);
      const y = fn(b, store);
      if (x < y) return -sign;
      if (x > y) return sign;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

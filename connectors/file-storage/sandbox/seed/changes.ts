import { DAY, EPOCH_MS, iso, MINUTE } from '../clock.ts';
import type { ChangeRecord } from '../types.ts';
import type { Builder } from './builder.ts';

interface ChangeEvent {
  time: number;
  changeType: 'file' | 'drive';
  id: string;
  removed: boolean;
  /** Tie-breaker: creation order, so simultaneous events keep a stable order. */
  order: number;
}

/** The change log: creations, modifications, trashing, a drive rename and a permanent removal, in time order. */
export function buildChanges(b: Builder, removedFileId: string, removedAt: { created: number; removed: number }): ChangeRecord[] {
  const events: ChangeEvent[] = [];
  let order = 0;
  for (const d of b.drives) {
    events.push({ time: Date.parse(d.createdTime), changeType: 'drive', id: d.id, removed: false, order: order++ });
  }
  const first = b.drives[0];
  if (first) events.push({ time: EPOCH_MS - 2 * DAY, changeType: 'drive', id: first.id, removed: false, order: order++ });
  for (const f of b.files) {
    const created = Date.parse(f.createdTime);
    const modified = Date.parse(f.modifiedTime);
    events.push({ time: created, changeType: 'file', id: f.id, removed: false, order: order++ });
    if (modified > created) events.push({ time: modified, changeType: 'file', id: f.id, removed: false, order: order++ });
    if (f.trashed) {
      const at = f.trashedTime ? Date.parse(f.trashedTime) : modified + MINUTE;
      events.push({ time: Math.min(EPOCH_MS - MINUTE, at), changeType: 'file', id: f.id, removed: false, order: order++ });
    }
  }
  events.push({ time: removedAt.created, changeType: 'file', id: removedFileId, removed: false, order: order++ });
  events.push({ time: removedAt.removed, changeType: 'file', id: removedFileId, removed: true, order: order++ });
  events.sort((x, y) => x.time - y.time || x.order - y.order);
  const driveOf = new Map(b.files.map((f) => [f.id, f.driveId]));
  return events.map((e, i) => {
    const driveId = e.changeType === 'drive' ? e.id : driveOf.get(e.id);
    return {
      changeId: i + 1,
      changeType: e.changeType,
      time: iso(e.time),
      ...(e.changeType === 'file' ? { fileId: e.id } : {}),
      ...(driveId ? { driveId } : {}),
      removed: e.removed,
    };
  });
}

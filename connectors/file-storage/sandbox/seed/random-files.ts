import { DAY, EPOCH_MS, HOUR, iso, MINUTE } from '../clock.ts';
import { BINARY_KINDS, FOLDER, GOOGLE_DOC, GOOGLE_DRAWING, GOOGLE_SHEET, GOOGLE_SLIDES, isEditorType, SHORTCUT, TEXT_KINDS } from '../mime.ts';
import { Random } from '../prng.ts';
import type { DriveFileRecord, SharedDriveRecord } from '../types.ts';
import { QUALIFIERS, sentence, TOPICS } from '../vocab.ts';
import {
  type Builder,
  editorSize,
  FOLDER_COLORS,
  inheritDrivePermissions,
  myDrivePermissions,
  newFile,
  patternContent,
  textFileBody,
  timeAgo,
  titleCase,
} from './builder.ts';

type Space = { kind: 'my' } | { kind: 'drive'; drive: SharedDriveRecord } | { kind: 'sharedWithMe' };

/** Random files up to the requested count: folders first-come, items spread over My Drive, shared drives and shared-with-me. */
export function randomFiles(b: Builder, seed: number, count: number): void {
  const rng = Random.derive(seed, 'random-files');
  const typeWeights: (readonly [string, number])[] = [
    ['folder', 14],
    [GOOGLE_DOC, 14],
    [GOOGLE_SHEET, 9],
    [GOOGLE_SLIDES, 6],
    [GOOGLE_DRAWING, 3],
    ['binary', 36],
    ['text', 14],
    ['shortcut', 2],
  ];
  for (let i = 0; i < count; i++) {
    const space: Space = rng.weighted<Space>([
      [{ kind: 'my' }, 70],
      [{ kind: 'drive', drive: rng.pick(b.drives) }, 22],
      [{ kind: 'sharedWithMe' }, 8],
    ]);
    let type = rng.weighted(typeWeights);
    if (space.kind === 'sharedWithMe' && (type === 'folder' || type === 'shortcut')) type = GOOGLE_DOC;
    const created = timeAgo(rng, 1100, 2);
    const modified = rng.chance(0.15) ? created : Math.min(EPOCH_MS - HOUR, created + Math.floor(rng.next() * (EPOCH_MS - created)));
    const owner = space.kind === 'sharedWithMe' ? rng.pick(b.users.slice(1)) : b.me;
    const modifier = space.kind === 'my' && rng.chance(0.7) ? b.me : rng.pick(b.users);

    let parents: string[] = [];
    if (space.kind === 'my') {
      const folders = b.files.filter((f) => f.mimeType === FOLDER && !f.driveId && f.ownerEmail === b.me.emailAddress);
      parents = [rng.chance(0.45) || folders.length === 0 ? b.root.id : rng.pick(folders).id];
    } else if (space.kind === 'drive') {
      const folders = b.files.filter((f) => f.mimeType === FOLDER && f.driveId === space.drive.id);
      parents = [rng.chance(0.5) || folders.length === 0 ? space.drive.id : rng.pick(folders).id];
    }

    const topic = rng.pick(TOPICS);
    const qualifier = rng.pick(QUALIFIERS);
    const base: Partial<DriveFileRecord> = {
      parents,
      ...(space.kind === 'drive' ? { driveId: space.drive.id } : { ownerEmail: owner.emailAddress }),
      lastModifyingUserEmail: modifier.emailAddress,
      ...(modifier.me ? { modifiedByMeTime: iso(modified) } : {}),
      ...(rng.chance(0.8) ? { viewedByMeTime: iso(Math.min(EPOCH_MS - MINUTE, modified + Math.floor(rng.next() * 5 * DAY))) } : {}),
      ...(space.kind === 'sharedWithMe' ? { sharedWithMeTime: iso(modified), sharingUserEmail: owner.emailAddress } : {}),
      starred: rng.chance(0.1),
      version: rng.int(1, 600),
      ...(rng.chance(0.1) ? { resourceKey: b.ids.resourceKey() } : {}),
      ...(rng.chance(0.1) ? { properties: { department: rng.pick(['finance', 'engineering', 'legal'] as const) } } : {}),
      ...(rng.chance(0.15) ? { description: sentence(rng) } : {}),
    };
    const times = { createdTime: iso(created), modifiedTime: iso(modified) };

    let file: DriveFileRecord;
    if (type === 'folder') {
      file = newFile(b, { ...base, ...times, name: `${topic} ${i + 1}`, mimeType: FOLDER, folderColorRgb: rng.pick(FOLDER_COLORS) });
    } else if (isEditorType(type)) {
      const exportBytes = rng.int(800, 40_000);
      file = newFile(b, { ...base, ...times, name: titleCase(topic, qualifier), mimeType: type, exportBytes, editorSize: editorSize(exportBytes) });
    } else if (type === 'text') {
      const kind = rng.pick(TEXT_KINDS);
      const name = `${topic.toLowerCase()}-${qualifier}-${i + 1}.${kind.extension}`;
      file = newFile(b, { ...base, ...times, name, mimeType: kind.mimeType, originalFilename: name });
      file.content = { kind: 'bytes', bytes: Buffer.from(textFileBody(rng, kind.mimeType, rng.int(3, 60)), 'utf8') };
    } else if (type === 'shortcut') {
      const targets = b.files.filter((f) => f.mimeType !== FOLDER && f.mimeType !== SHORTCUT && !f.driveId);
      const target = rng.pick(targets);
      file = newFile(b, { ...base, ...times, name: `Shortcut to ${target.name}`, mimeType: SHORTCUT, shortcutTargetId: target.id });
    } else {
      const kind = rng.pick(BINARY_KINDS);
      const name = `${topic.toLowerCase()}_${qualifier}_${i + 1}.${kind.extension}`;
      file = newFile(b, { ...base, ...times, name, mimeType: kind.mimeType, originalFilename: name });
      file.content = patternContent(file.id, kind, rng.int(kind.minSize, kind.maxSize));
      if (kind.mimeType.startsWith('image/'))
        file.imageMetadata = { width: rng.pick([640, 1280, 1920, 4032]), height: rng.pick([480, 720, 1080, 3024]), rotation: 0 };
      if (kind.mimeType.startsWith('video/')) file.videoDurationMillis = rng.int(3_000, 600_000);
    }
    if (rng.chance(0.08)) {
      file.trashed = true;
      file.explicitlyTrashed = true;
      file.trashingUserEmail = b.me.emailAddress;
      if (file.driveId) file.trashedTime = iso(Math.min(EPOCH_MS - MINUTE, modified + HOUR));
    }
    if (file.driveId) inheritDrivePermissions(b, file);
    else myDrivePermissions(b, file, rng);
  }
  // Items inside a trashed folder are trashed too (implicitly: explicitlyTrashed stays false).
  const trashedFolders = new Set(b.files.filter((f) => f.trashed && f.mimeType === FOLDER).map((f) => f.id));
  for (let changed = true; changed; ) {
    changed = false;
    for (const f of b.files) {
      if (!f.trashed && f.parents.some((p) => trashedFolders.has(p))) {
        f.trashed = true;
        if (f.mimeType === FOLDER) trashedFolders.add(f.id);
        changed = true;
      }
    }
  }
}

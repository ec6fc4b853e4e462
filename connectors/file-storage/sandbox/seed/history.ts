import { EPOCH_MS, HOUR, iso, MINUTE } from '../clock.ts';
import { FOLDER, GOOGLE_DOC, isEditorType, SHORTCUT } from '../mime.ts';
import { Random } from '../prng.ts';
import type { CommentRecord, ContentSpec, DriveFileRecord, ReplyRecord, RevisionRecord } from '../types.ts';
import { sentence } from '../vocab.ts';
import type { Builder } from './builder.ts';
import type { SeededFixtures } from './fixtures.ts';

/** Comments (some deleted, some resolved) with replies: many on the fixture Doc, a few elsewhere. */
export function buildComments(b: Builder, seed: number, fixtures: SeededFixtures): Map<string, CommentRecord[]> {
  const rng = Random.derive(seed, 'comments');
  const out = new Map<string, CommentRecord[]>();
  const make = (file: DriveFileRecord, count: number, deletedEvery: number) => {
    const list: CommentRecord[] = [];
    const start = Date.parse(file.createdTime);
    const span = Math.max(HOUR, Date.parse(file.modifiedTime) - start);
    for (let i = 0; i < count; i++) {
      const created = start + Math.floor(((i + rng.next()) / count) * span);
      const replies: ReplyRecord[] = [];
      const replyCount = i === 0 ? 5 : rng.int(0, 3);
      let last = created;
      for (let r = 0; r < replyCount; r++) {
        last = Math.min(EPOCH_MS - MINUTE, last + rng.int(10, 600) * MINUTE);
        const resolves = r === replyCount - 1 && i % 4 === 1;
        replies.push({
          id: b.ids.comment(),
          authorEmail: rng.pick(b.users).emailAddress,
          createdTime: iso(last),
          modifiedTime: iso(last),
          content: resolves ? '' : sentence(rng, 3, 12),
          ...(resolves ? { action: 'resolve' as const } : {}),
          deleted: i === 0 && r === 2,
        });
      }
      list.push({
        id: b.ids.comment(),
        fileId: file.id,
        authorEmail: rng.pick(b.users).emailAddress,
        createdTime: iso(created),
        modifiedTime: iso(Math.max(created, last)),
        content: sentence(rng, 5, 20),
        ...(file.mimeType === GOOGLE_DOC ? { anchor: `kix.${rng.chars('abcdefghijklmnopqrstuvwxyz0123456789', 12)}`, quotedText: sentence(rng, 2, 6) } : {}),
        resolved: i % 4 === 1,
        deleted: deletedEvery > 0 && i % deletedEvery === deletedEvery - 1,
        replies,
      });
    }
    out.set(file.id, list);
  };
  const byId = new Map(b.files.map((f) => [f.id, f]));
  make(byId.get(fixtures.commentedFileId) as DriveFileRecord, 25, 8);
  make(byId.get(fixtures.sharedDriveDocId) as DriveFileRecord, 3, 0);
  make(byId.get(fixtures.binaryFileId) as DriveFileRecord, 2, 0);
  for (const f of b.files) {
    if (!out.has(f.id) && isEditorType(f.mimeType) && f.exportBytes !== undefined && f.exportBytes < 1_000_000 && rng.chance(0.3)) make(f, rng.int(1, 4), 0);
  }
  return out;
}

/** Revisions: numeric ids for Docs editor files, opaque ids and own bytes for binary files. */
export function buildRevisions(b: Builder, seed: number, fixtures: SeededFixtures): Map<string, RevisionRecord[]> {
  const rng = Random.derive(seed, 'revisions');
  const out = new Map<string, RevisionRecord[]>();
  for (const f of b.files) {
    if (f.mimeType === FOLDER || f.mimeType === SHORTCUT) continue;
    const editor = isEditorType(f.mimeType);
    const count = f.id === fixtures.revisionsFileId ? 3 : f.id === fixtures.docId ? 4 : editor ? rng.int(1, 5) : rng.int(1, 2);
    const start = Date.parse(f.createdTime);
    const end = Date.parse(f.modifiedTime);
    const list: RevisionRecord[] = [];
    let number = 1;
    for (let i = 0; i < count; i++) {
      const head = i === count - 1;
      const at = head ? end : start + Math.floor(((i + rng.next() * 0.5) / count) * Math.max(0, end - start));
      const modifier = head ? f.lastModifyingUserEmail : rng.pick(b.users).emailAddress;
      if (editor) {
        number += rng.int(1, 40);
        list.push({
          id: String(number),
          fileId: f.id,
          mimeType: f.mimeType,
          modifiedTime: iso(at),
          lastModifyingUserEmail: modifier,
          keepForever: false,
          published: false,
          publishAuto: false,
          publishedOutsideDomain: false,
        });
      } else {
        const id = b.ids.binaryRevision();
        const content: ContentSpec | undefined = head
          ? f.content
          : f.content?.kind === 'pattern'
            ? { kind: 'pattern', size: Math.max(1, Math.floor(f.content.size * (0.6 + rng.next() * 0.5))), header: f.content.header, key: `${f.id}:${id}` }
            : f.content;
        list.push({
          id,
          fileId: f.id,
          mimeType: f.mimeType,
          modifiedTime: iso(at),
          lastModifyingUserEmail: modifier,
          keepForever: !head && f.id === fixtures.revisionsFileId,
          ...(content ? { content } : {}),
          originalFilename: f.originalFilename ?? f.name,
        });
      }
    }
    out.set(f.id, list);
  }
  return out;
}

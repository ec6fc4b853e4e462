import { indexableText } from '../documents.ts';
import { isEditorType, SHORTCUT } from '../mime.ts';
import type { DriveStore } from '../store.ts';
import type { DriveFileRecord, SharedDriveRecord } from '../types.ts';
import { DATE_OPS, EQUALITY_OPS, type Dialect } from './compile.ts';

/**
 * The search fields of files.list and drives.list, with Drive's documented matching rules:
 * - `name contains 'x'` is prefix matching on the name's words: "HelloWorld" matches 'Hello' but
 *   not 'World'; "Budget 2024" matches 'budg' and '2024'. Case-insensitive.
 * - `fullText contains 'x'` matches whole words (a phrase must appear as consecutive words) in the
 *   name, description and indexed text content. Case-insensitive.
 * - `mimeType contains 'image/'` is a substring match.
 * - `=` on strings is exact.
 */

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Prefix match starting at a word boundary. */
export function namePrefixMatch(name: string, needle: string): boolean {
  const hay = name.toLowerCase();
  const want = needle.toLowerCase();
  if (want === '') return true;
  for (let at = hay.indexOf(want); at >= 0; at = hay.indexOf(want, at + 1)) {
    if (at === 0 || !WORD_CHAR.test(hay[at - 1] as string)) return true;
  }
  return false;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Whole-word (and whole-phrase) match. */
export function fullTextMatch(haystackWords: readonly string[], needle: string): boolean {
  const want = words(needle);
  if (want.length === 0) return true;
  outer: for (let i = 0; i + want.length <= haystackWords.length; i++) {
    for (let j = 0; j < want.length; j++) if (haystackWords[i + j] !== want[j]) continue outer;
    return true;
  }
  return false;
}

/** How much content text Drive-like indexing looks at per file. */
const INDEX_LIMIT = 64 * 1024;

export function filesDialect(store: DriveStore): Dialect<DriveFileRecord> {
  const index = new Map<string, string[]>();
  const fullTextOf = (f: DriveFileRecord): string[] => {
    let w = index.get(f.id);
    if (!w) {
      let content = '';
      if (isEditorType(f.mimeType)) content = indexableText(store.data.seed, f, INDEX_LIMIT);
      else if (f.content?.kind === 'bytes') content = f.content.bytes.subarray(0, INDEX_LIMIT).toString('utf8');
      w = words(`${f.name}\n${f.description ?? ''}\n${content}`);
      index.set(f.id, w);
    }
    return w;
  };
  const me = store.me.emailAddress;
  const email = (value: string) => (value === 'me' ? me : value);
  const withRole = (f: DriveFileRecord, value: string, roles: readonly string[]) => {
    const target = email(value);
    return store.permissionsOf(f.id).some((p) => roles.includes(p.role) && (p.emailAddress === target || p.domain === target));
  };
  const visibility = (f: DriveFileRecord): string => {
    const perms = store.permissionsOf(f.id);
    const anyone = perms.find((p) => p.type === 'anyone');
    if (anyone) return anyone.allowFileDiscovery ? 'anyoneCanFind' : 'anyoneWithLink';
    const domain = perms.find((p) => p.type === 'domain');
    if (domain) return domain.allowFileDiscovery ? 'domainCanFind' : 'domainWithLink';
    return 'limited';
  };
  const time = (t: string | undefined) => (t === undefined ? undefined : Date.parse(t));
  return {
    name: { type: 'string', ops: ['=', '!=', 'contains'], get: (f) => f.name, contains: (v, needle) => namePrefixMatch(v, needle) },
    fullText: { type: 'string', ops: ['contains'], get: (f) => f.name, contains: (_v, needle, f) => fullTextMatch(fullTextOf(f), needle) },
    mimeType: { type: 'string', ops: ['=', '!=', 'contains'], get: (f) => f.mimeType },
    modifiedTime: { type: 'date', ops: DATE_OPS, get: (f) => time(f.modifiedTime) },
    viewedByMeTime: { type: 'date', ops: DATE_OPS, get: (f) => time(f.viewedByMeTime) },
    createdTime: { type: 'date', ops: DATE_OPS, get: (f) => time(f.createdTime) },
    trashed: { type: 'bool', ops: EQUALITY_OPS, get: (f) => f.trashed },
    starred: { type: 'bool', ops: EQUALITY_OPS, get: (f) => f.starred },
    sharedWithMe: { type: 'bool', ops: EQUALITY_OPS, get: (f) => f.sharedWithMeTime !== undefined && f.ownerEmail !== me && !f.driveId },
    visibility: { type: 'string', ops: EQUALITY_OPS, get: visibility },
    'shortcutDetails.targetId': { type: 'string', ops: EQUALITY_OPS, get: (f) => (f.mimeType === SHORTCUT ? f.shortcutTargetId : undefined) },
    parents: { type: 'collection', has: (f, id) => f.parents.includes(id === 'root' ? store.data.root.id : id) },
    owners: { type: 'collection', has: (f, value) => f.ownerEmail !== undefined && f.ownerEmail === email(value) },
    writers: { type: 'collection', has: (f, value) => withRole(f, value, ['owner', 'organizer', 'fileOrganizer', 'writer']) },
    readers: { type: 'collection', has: (f, value) => withRole(f, value, ['owner', 'organizer', 'fileOrganizer', 'writer', 'commenter', 'reader']) },
    properties: { type: 'map', get: (f) => f.properties },
    appProperties: { type: 'map', get: (f) => f.appProperties },
  };
}

export function drivesDialect(store: DriveStore): Dialect<SharedDriveRecord> {
  const members = (d: SharedDriveRecord) => store.permissionsOf(d.id);
  return {
    name: { type: 'string', ops: ['=', '!=', 'contains'], get: (d) => d.name, contains: (v, needle) => namePrefixMatch(v, needle) },
    createdTime: { type: 'date', ops: DATE_OPS, get: (d) => Date.parse(d.createdTime) },
    hidden: { type: 'bool', ops: EQUALITY_OPS, get: (d) => d.hidden },
    memberCount: { type: 'number', ops: DATE_OPS, get: (d) => members(d).length },
    organizerCount: { type: 'number', ops: DATE_OPS, get: (d) => members(d).filter((p) => p.role === 'organizer').length },
    orgUnitId: { type: 'string', ops: EQUALITY_OPS, get: () => undefined },
  };
}

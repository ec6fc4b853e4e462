import { DAY, EPOCH_MS } from '../clock.ts';
import { latin1 } from '../content.ts';
import type { IdMint } from '../ids.ts';
import type { BinaryKind } from '../mime.ts';
import { Random } from '../prng.ts';
import type { ContentSpec, DriveFileRecord, DriveUser, PermissionRecord, PermissionRole, SharedDriveRecord } from '../types.ts';
import { FIRST_NAMES, LAST_NAMES, paragraph, PRODUCTS, QUALIFIERS, REGIONS, sentence, TOPICS } from '../vocab.ts';

/** Shared pieces of the world generator: constants, the builder state, and helpers that add files and permissions. */

export const DOMAIN = 'acme-sandbox.example';
export const LARGE_FILE_NAME = 'large.bin';
/** Plain-text bytes of the fixture Doc whose every export exceeds 10 MB. */
export const LARGE_DOC_EXPORT_BYTES = 10 * 1024 * 1024 + 512 * 1024;

export const DRIVE_NAMES = ['Engineering', 'Finance', 'Marketing', 'Legal', 'Operations', 'Design', 'Sales', 'Research'];
export const DRIVE_THEMES = ['abacus', 'bok_choy', 'cityscape', 'clouds', 'coffee_beans', 'desk', 'fitness', 'glacier'];
export const FOLDER_COLORS = ['#8f8f8f', '#4986e7', '#16a765', '#ffad46', '#f83a22', '#b99aff'];

export interface Builder {
  rng: Random;
  ids: IdMint;
  me: DriveUser;
  users: DriveUser[];
  root: DriveFileRecord;
  drives: SharedDriveRecord[];
  files: DriveFileRecord[];
  permissions: Map<string, PermissionRecord[]>;
  /** Domain-wide permission id (one per domain, like Drive). */
  domainPermissionId: string;
  groupEmail: string;
  groupPermissionId: string;
}

export function makeUsers(seed: number, ids: IdMint): DriveUser[] {
  const rng = Random.derive(seed, 'users');
  const firsts = rng.sample(FIRST_NAMES, 10);
  const users: DriveUser[] = [];
  firsts.forEach((first, i) => {
    const last = rng.pick(LAST_NAMES);
    const email = `${first.toLowerCase()}.${last.toLowerCase()}@${DOMAIN}`;
    users.push({
      displayName: `${first} ${last}`,
      emailAddress: email,
      permissionId: ids.userPermission(),
      photoLink: `https://lh3.googleusercontent.com/a/default-user=s64-${rng.chars('abcdefghijklmnopqrstuvwxyz0123456789', 10)}`,
      me: i === 0,
    });
  });
  return users;
}

/** A time between `fromDaysAgo` and `toDaysAgo` before the epoch, rounded to the millisecond. */
export function timeAgo(rng: Random, fromDaysAgo: number, toDaysAgo: number): number {
  return EPOCH_MS - Math.floor((toDaysAgo + rng.next() * (fromDaysAgo - toDaysAgo)) * DAY);
}

export function patternContent(key: string, kind: BinaryKind, size: number): ContentSpec {
  return { kind: 'pattern', size, header: latin1(kind.magic).subarray(0, size), key };
}

/** What a new file is unless said otherwise: not trashed or starred, first version, shareable. */
export const FILE_DEFAULTS = {
  trashed: false,
  explicitlyTrashed: false,
  starred: false,
  version: 1,
  copyRequiresWriterPermission: false,
  writersCanShare: true,
} as const;

export function newFile(
  b: Builder,
  init: Partial<DriveFileRecord> & Pick<DriveFileRecord, 'name' | 'mimeType' | 'createdTime' | 'modifiedTime'>,
): DriveFileRecord {
  const file: DriveFileRecord = {
    id: b.ids.file(),
    parents: [],
    lastModifyingUserEmail: b.me.emailAddress,
    ...FILE_DEFAULTS,
    ...init,
  };
  b.files.push(file);
  return file;
}

export function userPermission(user: DriveUser, role: PermissionRole, inheritedFrom?: string): PermissionRecord {
  return {
    id: user.permissionId,
    type: 'user',
    role,
    emailAddress: user.emailAddress,
    displayName: user.displayName,
    photoLink: user.photoLink,
    ...(inheritedFrom ? { inheritedFrom } : {}),
  };
}

export function addPermission(b: Builder, id: string, permission: PermissionRecord): void {
  const list = b.permissions.get(id) ?? [];
  if (!list.some((p) => p.id === permission.id)) list.push(permission);
  b.permissions.set(id, list);
}

/** Drive members of a shared drive; every item in it inherits them. */
export function driveMembers(b: Builder, drive: SharedDriveRecord, index: number): void {
  const myRole: PermissionRole = index === 0 ? 'organizer' : index === 1 ? 'writer' : index % 2 === 0 ? 'fileOrganizer' : 'reader';
  addPermission(b, drive.id, userPermission(b.me, myRole));
  const rng = Random.derive(b.rng.uint32(), `members:${drive.id}`);
  const others = rng.sample(b.users.slice(1), 3 + (index % 3));
  others.forEach((u, i) => {
    addPermission(b, drive.id, userPermission(u, i === 0 ? 'organizer' : rng.pick(['writer', 'commenter', 'reader'] as const)));
  });
  addPermission(b, drive.id, {
    id: b.groupPermissionId,
    type: 'group',
    role: 'reader',
    emailAddress: b.groupEmail,
    displayName: 'All engineering',
  });
}

/** Shared-drive items carry the drive's members as inherited permissions. */
export function inheritDrivePermissions(b: Builder, file: DriveFileRecord): void {
  if (!file.driveId) return;
  for (const p of b.permissions.get(file.driveId) ?? []) addPermission(b, file.id, { ...p, inheritedFrom: file.driveId });
}

/** My Drive items I own: me as owner, plus some sharing. */
export function myDrivePermissions(b: Builder, file: DriveFileRecord, rng: Random, rich = false): void {
  const owner = b.users.find((u) => u.emailAddress === file.ownerEmail) ?? b.me;
  addPermission(b, file.id, userPermission(owner, 'owner'));
  if (owner !== b.me) addPermission(b, file.id, userPermission(b.me, rng.pick(['reader', 'commenter', 'writer'] as const)));
  if (rich || rng.chance(0.35)) addPermission(b, file.id, userPermission(rng.pick(b.users.slice(1)), 'writer'));
  if (rich || rng.chance(0.25)) addPermission(b, file.id, userPermission(rng.pick(b.users.slice(1)), rng.pick(['reader', 'commenter'] as const)));
  if (rich || rng.chance(0.1)) {
    addPermission(b, file.id, { id: b.groupPermissionId, type: 'group', role: 'commenter', emailAddress: b.groupEmail, displayName: 'All engineering' });
  }
  if (rich || rng.chance(0.15)) {
    addPermission(b, file.id, {
      id: b.domainPermissionId,
      type: 'domain',
      role: 'reader',
      domain: DOMAIN,
      displayName: 'Acme Sandbox',
      allowFileDiscovery: rich,
    });
  }
  if (rich || rng.chance(0.12)) {
    addPermission(b, file.id, { id: 'anyoneWithLink', type: 'anyone', role: 'reader', allowFileDiscovery: false });
  }
}

export function editorSize(exportBytes: number): number {
  return 1024 + Math.round(exportBytes * 1.6);
}

export function titleCase(topic: string, qualifier: string): string {
  return `${topic} ${qualifier}`;
}

export function textFileBody(rng: Random, mimeType: string, lines: number): string {
  switch (mimeType) {
    case 'text/csv': {
      const rows = ['region,product,units,revenue'];
      for (let i = 0; i < lines; i++) rows.push(`${rng.pick(REGIONS)},${rng.pick(PRODUCTS)},${rng.int(1, 500)},${(rng.int(100, 99999) / 100).toFixed(2)}`);
      return `${rows.join('\n')}\n`;
    }
    case 'application/json': {
      const items = [];
      for (let i = 0; i < lines; i++) items.push({ id: i + 1, product: rng.pick(PRODUCTS), region: rng.pick(REGIONS), active: rng.chance(0.7) });
      return `${JSON.stringify({ items }, null, 2)}\n`;
    }
    case 'text/markdown':
      return `# ${rng.pick(TOPICS)} ${rng.pick(QUALIFIERS)}\n\n${Array.from({ length: Math.max(1, lines >> 2) }, () => paragraph(rng)).join('\n\n')}\n`;
    default:
      return `${Array.from({ length: lines }, () => sentence(rng)).join('\n')}\n`;
  }
}

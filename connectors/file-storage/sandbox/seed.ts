import { DAY, EPOCH_MS, HOUR, iso, SANDBOX_EPOCH } from './clock.ts';
import { IdMint } from './ids.ts';
import { FOLDER } from './mime.ts';
import { Random } from './prng.ts';
import type { DriveFileRecord, DriveSandboxData, DriveUser, SharedDriveRecord } from './types.ts';
import { TOPICS } from './vocab.ts';
import {
  DOMAIN,
  DRIVE_NAMES,
  DRIVE_THEMES,
  driveMembers,
  FILE_DEFAULTS,
  FOLDER_COLORS,
  LARGE_FILE_NAME,
  makeUsers,
  myDrivePermissions,
  newFile,
  timeAgo,
  userPermission,
  type Builder,
} from './seed/builder.ts';
import { buildChanges } from './seed/changes.ts';
import { buildFixtures } from './seed/fixtures.ts';
import { buildComments, buildRevisions } from './seed/history.ts';
import { randomFiles } from './seed/random-files.ts';

export { DOMAIN, LARGE_DOC_EXPORT_BYTES, LARGE_FILE_NAME } from './seed/builder.ts';

/**
 * Builds the sandbox's world from (seed, sizes): users, shared drives, a fixed set of fixture files
 * tests rely on, random files up to the requested count, permissions, comments, revisions and the
 * change log. Every random choice comes from a purpose-specific stream (prng.ts).
 */

export interface SeedOptions {
  seed: number;
  files: number;
  drives: number;
  largeFileBytes?: number;
}

export function generateSeed(options: SeedOptions): DriveSandboxData {
  const { seed } = options;
  const ids = new IdMint(Random.derive(seed, 'ids'));
  const users = makeUsers(seed, ids);
  const me = users[0] as DriveUser;
  const groupIds = new IdMint(Random.derive(seed, 'group-ids'));
  const rootId = ids.drive();
  const root: DriveFileRecord = {
    id: rootId,
    name: 'My Drive',
    mimeType: FOLDER,
    parents: [],
    ownerEmail: me.emailAddress,
    lastModifyingUserEmail: me.emailAddress,
    createdTime: iso(EPOCH_MS - 1500 * DAY),
    modifiedTime: iso(EPOCH_MS - DAY),
    ...FILE_DEFAULTS,
  };
  const b: Builder = {
    rng: Random.derive(seed, 'builder'),
    ids,
    me,
    users,
    root,
    drives: [],
    files: [],
    permissions: new Map(),
    domainPermissionId: groupIds.groupPermission(),
    groupEmail: `engineering@${DOMAIN}`,
    groupPermissionId: groupIds.groupPermission(),
  };
  b.permissions.set(root.id, [userPermission(me, 'owner')]);

  const driveRng = Random.derive(seed, 'drives');
  const driveCount = Math.max(1, options.drives);
  for (let i = 0; i < driveCount; i++) {
    const name = i < DRIVE_NAMES.length ? (DRIVE_NAMES[i] as string) : `${driveRng.pick(TOPICS)} team ${i + 1}`;
    const theme = driveRng.pick(DRIVE_THEMES);
    const drive: SharedDriveRecord = {
      id: ids.drive(),
      name,
      colorRgb: driveRng.pick(FOLDER_COLORS),
      themeId: theme,
      backgroundImageLink: `https://ssl.gstatic.com/team_drive_themes/${theme}_background.jpg`,
      createdTime: iso(timeAgo(driveRng, 1200, 900)),
      // The third drive is hidden from the default view (drives.list still returns it, flagged).
      hidden: i === 2,
      restrictions: {
        adminManagedRestrictions: false,
        copyRequiresWriterPermission: i === 3,
        domainUsersOnly: i === 1,
        driveMembersOnly: i === 1,
        sharingFoldersRequiresOrganizerPermission: false,
      },
    };
    b.drives.push(drive);
    driveMembers(b, drive, i);
  }

  const fixtures = buildFixtures(b, seed);
  const fixtureCount = b.files.length;
  randomFiles(b, seed, Math.max(0, options.files - fixtureCount));

  let largeFileId: string | null = null;
  if (options.largeFileBytes !== undefined) {
    const large = newFile(b, {
      name: LARGE_FILE_NAME,
      mimeType: 'application/octet-stream',
      parents: [root.id],
      ownerEmail: me.emailAddress,
      createdTime: iso(EPOCH_MS - 3 * HOUR),
      modifiedTime: iso(EPOCH_MS - 2 * HOUR),
      originalFilename: LARGE_FILE_NAME,
      version: 2,
    });
    large.content = { kind: 'pattern', size: options.largeFileBytes, header: Buffer.alloc(0), key: `large:${large.id}` };
    myDrivePermissions(b, large, Random.derive(seed, 'large'));
    largeFileId = large.id;
  }

  const removedFileId = ids.file();
  const changes = buildChanges(b, removedFileId, { created: EPOCH_MS - 20 * DAY, removed: EPOCH_MS - 19 * DAY });
  const comments = buildComments(b, seed, fixtures);
  const revisions = buildRevisions(b, seed, fixtures);

  return {
    seed,
    epoch: SANDBOX_EPOCH,
    me,
    users,
    domain: DOMAIN,
    drives: b.drives,
    files: b.files,
    root,
    permissions: b.permissions,
    comments,
    revisions,
    changes,
    fixtures: { ...fixtures, removedFileId },
    largeFileId,
  };
}

import { ContentLibrary, digestsOf, type ContentSource, type Digests } from './content.ts';
import { ExportCache } from './export.ts';
import type {
  ChangeRecord,
  CommentRecord,
  ContentSpec,
  DriveFileRecord,
  DriveSandboxData,
  DriveUser,
  PermissionRecord,
  PermissionRole,
  RevisionRecord,
  SharedDriveRecord,
} from './types.ts';

/** Read-side indexes over the seeded data, plus the caches that make content cheap to serve. */
export class DriveStore {
  readonly content: ContentLibrary;
  readonly exports: ExportCache;
  private readonly filesById = new Map<string, DriveFileRecord>();
  private readonly drivesById = new Map<string, SharedDriveRecord>();
  private readonly usersByEmail = new Map<string, DriveUser>();
  private readonly digests = new Map<ContentSpec, Digests>();

  constructor(readonly data: DriveSandboxData) {
    this.content = new ContentLibrary(data.seed);
    this.exports = new ExportCache(data.seed);
    this.filesById.set(data.root.id, data.root);
    for (const f of data.files) this.filesById.set(f.id, f);
    for (const d of data.drives) this.drivesById.set(d.id, d);
    for (const u of data.users) this.usersByEmail.set(u.emailAddress, u);
  }

  get me(): DriveUser {
    return this.data.me;
  }

  /** Any file (root included) regardless of who may see it; 'root' is the My Drive root alias. */
  file(id: string): DriveFileRecord | undefined {
    return this.filesById.get(id === 'root' ? this.data.root.id : id);
  }

  /**
   * The file as files.get sees it: shared-drive items are invisible to apps that did not declare
   * supportsAllDrives (Drive answers 404 for them, not 403).
   */
  visibleFile(id: string, supportsAllDrives: boolean): DriveFileRecord | undefined {
    const file = this.file(id);
    if (!file) return undefined;
    if (file.driveId && !supportsAllDrives) return undefined;
    return file;
  }

  drive(id: string): SharedDriveRecord | undefined {
    return this.drivesById.get(id);
  }

  user(email: string | undefined): DriveUser | undefined {
    return email === undefined ? undefined : this.usersByEmail.get(email);
  }

  permissionsOf(id: string): readonly PermissionRecord[] {
    return this.data.permissions.get(id) ?? [];
  }

  commentsOf(fileId: string): readonly CommentRecord[] {
    return this.data.comments.get(fileId) ?? [];
  }

  revisionsOf(fileId: string): readonly RevisionRecord[] {
    return this.data.revisions.get(fileId) ?? [];
  }

  /** My role on an item: owner of my files, my membership role in a shared drive, or my share. */
  myRole(file: DriveFileRecord): PermissionRole {
    if (file.driveId) return this.myDriveRole(file.driveId) ?? 'reader';
    if (file.ownerEmail === this.me.emailAddress) return 'owner';
    const mine = this.permissionsOf(file.id).find((p) => p.type === 'user' && p.emailAddress === this.me.emailAddress);
    return mine?.role ?? 'reader';
  }

  myDriveRole(driveId: string): PermissionRole | undefined {
    return this.permissionsOf(driveId).find((p) => p.type === 'user' && p.emailAddress === this.me.emailAddress)?.role;
  }

  source(spec: ContentSpec): ContentSource {
    return this.content.source(spec);
  }

  /** md5/sha1/sha256 of binary content, computed on first use (large files take a moment, once). */
  digestsOf(spec: ContentSpec): Digests {
    let d = this.digests.get(spec);
    if (!d) {
      d = digestsOf(this.content.source(spec));
      this.digests.set(spec, d);
    }
    return d;
  }

  /** The token changes.getStartPageToken hands out: the id the next change will get. */
  startPageToken(): number {
    const last = this.data.changes[this.data.changes.length - 1];
    return (last?.changeId ?? 0) + 1;
  }

  changesFrom(changeId: number): readonly ChangeRecord[] {
    const first = this.data.changes[0]?.changeId ?? 1;
    return this.data.changes.slice(Math.max(0, changeId - first));
  }
}

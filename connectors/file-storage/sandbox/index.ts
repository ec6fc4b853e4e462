import { createServer, type Server } from 'node:http';
import { OAuthSandbox } from '../../../testing/oauth/index.ts';
import { readRange } from './content.ts';
import { FaultBook } from './faults.ts';
import { isGoogleType } from './mime.ts';
import { AUTHORIZE_PATH, DriveOAuth, TOKEN_PATH } from './oauth.ts';
import { generateSeed } from './seed.ts';
import { createRequestHandler } from './server.ts';
import { DriveStore } from './store.ts';
import type { DriveFault, DriveRequestLogEntry, DriveSandboxData, DriveSandboxOptions } from './types.ts';
import { listen } from '../../../testing/index.ts';

export type {
  ChangeRecord,
  CommentRecord,
  ContentSpec,
  DriveFault,
  DriveFileRecord,
  DriveRequestLogEntry,
  DriveSandboxData,
  DriveSandboxFixtures,
  DriveSandboxOptions,
  DriveUser,
  PermissionRecord,
  ReplyRecord,
  RevisionRecord,
  SharedDriveRecord,
} from './types.ts';
export type { OAuthClientPair, OAuthStats } from '../../../testing/oauth/index.ts';
export { SANDBOX_EPOCH } from './clock.ts';
export { EXPORT_SIZE_LIMIT } from './export.ts';
export { LARGE_DOC_EXPORT_BYTES, LARGE_FILE_NAME } from './seed.ts';

/**
 * A local emulator of the Google Drive v3 REST API (read methods) over plain node:http, backed by
 * deterministic seeded data: files of every kind, shared drives, permissions, comments, revisions
 * and a change log. Media is generated on the fly, so multi-gigabyte downloads cost no memory.
 * Google's OAuth 2.0 (consent page, token and revoke endpoints) issues access tokens on top of the static one.
 */
export class DriveSandbox extends OAuthSandbox {
  /** API root, e.g. http://127.0.0.1:4011 (callers append /drive/v3/...). */
  readonly url: string;
  /** Id of "large.bin" when largeFileBytes was given. */
  readonly largeFileId: string | null;
  /** Every /drive/v3 request received, in order (faulted and rejected ones included; none when `recordRequests` is false). */
  readonly requests: DriveRequestLogEntry[];
  /** The seeded state; tests find fixture ids in data.fixtures. */
  readonly data: DriveSandboxData;

  private constructor(
    private readonly server: Server,
    private readonly store: DriveStore,
    private readonly faults: FaultBook,
    oauth: DriveOAuth,
    requests: DriveRequestLogEntry[],
    url: string,
  ) {
    // authorizeUrl and tokenUrl stand where https://accounts.google.com/o/oauth2/v2/auth and https://oauth2.googleapis.com/token do.
    super(oauth.authority, `${url}${AUTHORIZE_PATH}`, `${url}${TOKEN_PATH}`);
    this.url = url;
    this.requests = requests;
    this.data = store.data;
    this.largeFileId = store.data.largeFileId;
  }

  static async start(options: DriveSandboxOptions): Promise<DriveSandbox> {
    if (typeof options.token !== 'string' || options.token === '') throw new TypeError('DriveSandbox: token is required');
    const large = options.largeFileBytes;
    if (large !== undefined && (!Number.isSafeInteger(large) || large < 0)) throw new RangeError('DriveSandbox: largeFileBytes must be a non-negative integer');
    const store = new DriveStore(
      generateSeed({
        seed: options.seed ?? 1,
        files: options.files ?? 60,
        drives: options.drives ?? 3,
        ...(large !== undefined ? { largeFileBytes: large } : {}),
      }),
    );
    const faults = new FaultBook();
    const oauth = new DriveOAuth(store, options);
    const requests: DriveRequestLogEntry[] = [];
    const server = createServer(
      createRequestHandler({ token: options.token, store, faults, oauth, requests: options.recordRequests === false ? null : requests }),
    );
    const origin = await listen(server, options.port, options.host);
    return new DriveSandbox(server, store, faults, oauth, requests, origin);
  }

  /** The next `count` requests under `fault.path` fail with `status` (or, for media, get cut short). */
  addFault(fault: DriveFault): void {
    this.faults.add(fault);
  }

  /** The exact bytes of a (non-Google) file, or of bytes start..endInclusive, to compare downloads with. */
  contentOf(fileId: string, start = 0, endInclusive?: number): Buffer {
    const file = this.store.file(fileId);
    if (!file) throw new RangeError(`DriveSandbox.contentOf: no file ${fileId}`);
    if (isGoogleType(file.mimeType) || !file.content) throw new RangeError(`DriveSandbox.contentOf: ${fileId} (${file.mimeType}) has no binary content`);
    const source = this.store.source(file.content);
    const end = endInclusive === undefined ? source.size : Math.min(source.size, endInclusive + 1);
    return readRange(source, start, end);
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.close((err) => (err ? reject(err) : resolve()));
      // Keep-alive sockets (and half-read downloads) would otherwise hold close() open.
      this.server.closeAllConnections();
    });
  }
}

export function startSandbox(options: DriveSandboxOptions): Promise<DriveSandbox> {
  return DriveSandbox.start(options);
}

import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DriveSandbox,
  EXPORT_SIZE_LIMIT,
  startSandbox,
  type DriveSandboxFixtures,
  type DriveSandboxOptions,
} from '../connectors/file-storage/sandbox/index.ts';
import { driveConformance, validateDriveRequest, validateDriveResponse } from './helpers/drive-openapi.ts';

const TOKEN = 'ya29.sandbox-test-token';
const LARGE = 256 * 1024 * 1024;
const FOLDER = 'application/vnd.google-apps.folder';
const DOC = 'application/vnd.google-apps.document';
const SHEET = 'application/vnd.google-apps.spreadsheet';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

let sb: DriveSandbox;
let fx: DriveSandboxFixtures;
/** Positions in sb.requests of requests sent off-spec on purpose (see the last test). */
const offSpecRequests = new Set<number>();

beforeAll(async () => {
  sb = await startSandbox({ token: TOKEN, largeFileBytes: LARGE });
  fx = sb.data.fixtures;
});
afterAll(async () => {
  await sb.close();
});

type Query = Record<string, string | number | boolean>;

interface CallOptions {
  headers?: Record<string, string>;
  /** null sends no Authorization header; a string replaces the whole header value. */
  authorization?: string | null;
  /** The request is deliberately off-spec: validateDriveRequest must report something. */
  offSpec?: boolean;
  sandbox?: DriveSandbox;
}

interface CallResult {
  status: number;
  headers: Headers;
  // Parsing boundary: JSON bodies are arbitrary until checked against the spec (below).
  body: any;
  bytes: Buffer;
}

function pathOf(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/**
 * One GET. JSON answers are validated against the Drive spec (success schema or Drive's error
 * envelope); the request, as the sandbox logged it, against the operation's declared parameters.
 */
async function call(template: string, params: Record<string, string> = {}, query: Query = {}, opts: CallOptions = {}): Promise<CallResult> {
  const target = opts.sandbox ?? sb;
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const url = `${target.url}${pathOf(template, params)}${qs ? `?${qs}` : ''}`;
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.authorization !== null) headers.authorization = opts.authorization ?? `Bearer ${TOKEN}`;
  const logged = target.requests.length;
  const res = await fetch(url, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  let body: unknown;
  if ((res.headers.get('content-type') ?? '').startsWith('application/json')) {
    body = JSON.parse(bytes.toString('utf8'));
    expect(validateDriveResponse(template, 'get', res.status, body), `${res.status} ${template}`).toEqual([]);
  }
  const entry = target.requests[logged];
  expect(entry).toBeDefined();
  const problems = validateDriveRequest(entry!);
  if (opts.offSpec && target === sb) offSpecRequests.add(logged);
  if (opts.offSpec && driveConformance) expect(problems.length, `expected ${template} ${qs} to be off-spec`).toBeGreaterThan(0);
  else expect(problems, `${template}?${qs}`).toEqual([]);
  return { status: res.status, headers: res.headers, body, bytes };
}

function expectError(r: CallResult, status: number, reason: string, message?: string | RegExp): void {
  expect(r.status).toBe(status);
  expect(r.body.error.code).toBe(status);
  expect(r.body.error.errors[0].reason).toBe(reason);
  if (typeof message === 'string') expect(r.body.error.message).toBe(message);
  else if (message) expect(r.body.error.message).toMatch(message);
}

const FILES = '/drive/v3/files';
const FILE = '/drive/v3/files/{fileId}';
const EXPORT = '/drive/v3/files/{fileId}/export';

async function listAll(query: Query, pageSize: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let pageToken: string | undefined;
  let pages = 0;
  do {
    const r = await call(FILES, {}, { ...query, pageSize, fields: 'nextPageToken,files(id)', ...(pageToken ? { pageToken } : {}) });
    expect(r.status).toBe(200);
    expect(r.body.files.length).toBeLessThanOrEqual(pageSize);
    ids.push(...r.body.files.map((f: { id: string }) => f.id));
    pageToken = r.body.nextPageToken;
    pages++;
  } while (pageToken);
  return { ids, pages };
}

async function names(q: string, extra: Query = {}): Promise<string[]> {
  const r = await call(FILES, {}, { q, pageSize: 1000, fields: 'files(name)', ...extra });
  expect(r.status).toBe(200);
  return r.body.files.map((f: { name: string }) => f.name);
}

describe('authentication and control endpoints', () => {
  it('accepts only Authorization: Bearer <token>', async () => {
    const missing = await call(FILES, {}, {}, { authorization: null });
    expectError(missing, 401, 'authError', /missing required authentication credential/);
    expect(missing.body.error.status).toBe('UNAUTHENTICATED');
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expectError(await call(FILES, {}, {}, { authorization: 'Bearer wrong' }), 401, 'authError', /invalid authentication credentials/);
    expectError(await call(FILES, {}, {}, { authorization: `Basic ${TOKEN}` }), 401, 'authError');
    // Drive accepts access_token in the query; the sandbox holds clients to the header.
    expectError(await call(FILES, {}, { access_token: TOKEN }, { authorization: null }), 401, 'authError');
    expect((await call(FILES, {}, {}, { authorization: `bearer ${TOKEN}` })).status).toBe(200);
  });

  it('serves health and takes faults over HTTP (with the same token)', async () => {
    const health = await fetch(`${sb.url}/_sandbox/health`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const fault = { path: '/drive/v3/about', status: 503 };
    const post = (auth: string | null, body: unknown) =>
      fetch(`${sb.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify(body),
      });
    expect((await post(null, fault)).status).toBe(401);
    expect((await post(`Bearer ${TOKEN}`, { path: 'x', status: 200 })).status).toBe(400);
    expect((await post(`Bearer ${TOKEN}`, fault)).status).toBe(200);
    expectError(await call('/drive/v3/about', {}, { fields: 'kind' }), 503, 'backendError');
    expect((await call('/drive/v3/about', {}, { fields: 'kind' })).status).toBe(200);
    expect(sb.requests.some((r) => r.path.startsWith('/_sandbox'))).toBe(false);
  });
});

describe('request log', () => {
  it('keeps none when recordRequests is false (the CLI sandbox, which may run for days)', async () => {
    const quiet = await startSandbox({ token: TOKEN, recordRequests: false });
    try {
      const answer = await fetch(`${quiet.url}/drive/v3/about?fields=kind`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(answer.status).toBe(200);
      expect((await fetch(`${quiet.url}/drive/v3/files`)).status).toBe(401);
      expect(quiet.requests).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});

describe('files.list', () => {
  it('answers Drive default fields, trashed items included, shared-drive items only on request', async () => {
    const r = await call(FILES);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(r.body.kind).toBe('drive#fileList');
    expect(r.body.incompleteSearch).toBe(false);
    const myItems = sb.data.files.filter((f) => f.driveId === undefined);
    expect(myItems.length).toBeLessThanOrEqual(100);
    expect(r.body.files).toHaveLength(myItems.length);
    expect(r.body.nextPageToken).toBeUndefined();
    for (const f of r.body.files) {
      for (const key of Object.keys(f)) expect(['kind', 'id', 'name', 'mimeType', 'resourceKey']).toContain(key);
      expect(f.kind).toBe('drive#file');
    }
    const ids = new Set(r.body.files.map((f: { id: string }) => f.id));
    expect(ids.has(fx.trashedFileId)).toBe(true);
    expect(ids.has(fx.sharedWithMeFileId)).toBe(true);
    expect(ids.has(fx.sharedDriveFileId)).toBe(false);
    expect(ids.has(fx.rootFolderId)).toBe(false);

    const all = await call(FILES, {}, { includeItemsFromAllDrives: true, supportsAllDrives: true, pageSize: 1000 });
    const shared = all.body.files.find((f: { id: string }) => f.id === fx.sharedDriveFileId);
    expect(shared).toMatchObject({ driveId: fx.sharedDriveId, teamDriveId: fx.sharedDriveId });
    expect(all.body.files).toHaveLength(sb.data.files.length);
    // Without supportsAllDrives an app never sees shared-drive items.
    const undeclared = await call(FILES, {}, { includeItemsFromAllDrives: true, pageSize: 1000 });
    expect(undeclared.body.files).toHaveLength(myItems.length);
  });

  it('walks whole lists page by page without gaps or duplicates', async () => {
    const everything = { includeItemsFromAllDrives: true, supportsAllDrives: true, corpora: 'allDrives' };
    const { ids, pages } = await listAll(everything, 7);
    expect(pages).toBe(Math.ceil(sb.data.files.length / 7));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(sb.data.files.map((f) => f.id)));
    const ordered = await listAll({ ...everything, orderBy: 'name', q: 'trashed = false' }, 4);
    const oneShot = await call(FILES, {}, { ...everything, orderBy: 'name', q: 'trashed = false', pageSize: 1000, fields: 'files(id)' });
    expect(ordered.ids).toEqual(oneShot.body.files.map((f: { id: string }) => f.id));
  });

  it('ties page tokens to their query and rejects garbage', async () => {
    const first = await call(FILES, {}, { pageSize: 2, q: 'trashed = false' });
    expect(typeof first.body.nextPageToken).toBe('string');
    expectError(await call(FILES, {}, { pageSize: 2, q: 'trashed = true', pageToken: first.body.nextPageToken }), 400, 'invalid', 'Invalid Value');
    expectError(await call(FILES, {}, { pageToken: 'not a token!' }), 400, 'invalid');
    // Changing pageSize between pages is fine.
    expect((await call(FILES, {}, { pageSize: 5, q: 'trashed = false', pageToken: first.body.nextPageToken })).status).toBe(200);
  });

  it('checks pageSize: below 1 is 400, above 1000 is coerced', async () => {
    const zero = await call(FILES, {}, { pageSize: 0 }, { offSpec: true });
    expectError(zero, 400, 'invalid', "Invalid value '0'. Values must be within the range: [1, 1000]");
    expect(zero.body.error.errors[0]).toMatchObject({ location: 'pageSize', locationType: 'parameter' });
    expectError(await call(FILES, {}, { pageSize: 'ten' }, { offSpec: true }), 400, 'invalid');
    const big = await call(FILES, {}, { pageSize: 5000, fields: 'files(id)' }, { offSpec: true });
    expect(big.status).toBe(200);
    const one = await call(FILES, {}, { pageSize: 1 });
    expect(one.body.files).toHaveLength(1);
  });

  it('q: names, types, parents, trash, dates, stars, sharing, properties, full text', async () => {
    const byId = new Map(sb.data.files.map((f) => [f.id, f]));
    const nameOf = (id: string) => byId.get(id)!.name;
    // name contains is prefix matching on words, case-insensitive.
    expect(await names("name contains 'budget'")).toContain('Budget 2024');
    expect(await names("name contains 'BUDG'")).toContain('Budget 2024');
    expect(await names("name contains 'udget'")).not.toContain('Budget 2024');
    expect(await names("name contains '2024'")).toContain('Budget 2024');
    expect(await names("name = 'Budget 2024'")).toEqual(['Budget 2024']);
    expect(await names("name = 'budget 2024'")).toEqual([]);
    expect(await names("name = 'Team\\'s architecture diagram'")).toEqual(["Team's architecture diagram"]);

    const folders = await names(`mimeType = '${FOLDER}'`);
    expect(folders.length).toBe(sb.data.files.filter((f) => !f.driveId && f.mimeType === FOLDER).length);
    const notFolders = await names(`mimeType != '${FOLDER}'`);
    expect(folders.length + notFolders.length).toBe(sb.data.files.filter((f) => !f.driveId).length);
    expect((await names("mimeType contains 'image/'")).every((n) => /\.(png|jpg)$/.test(n))).toBe(true);

    const children = await names(`'${fx.folderId}' in parents`);
    for (const id of [fx.docId, fx.sheetId, fx.slidesId, fx.binaryFileId, fx.imageFileId, fx.nestedFolderId]) expect(children).toContain(nameOf(id));
    expect(children).toHaveLength(sb.data.files.filter((f) => f.parents.includes(fx.folderId)).length);
    const atRoot = await names("'root' in parents");
    expect(atRoot).toContain('notes.txt');
    expect(atRoot).toEqual(await names(`'${fx.rootFolderId}' in parents`));

    const trashed = await names('trashed = true');
    expect(trashed).toContain(nameOf(fx.trashedFileId));
    expect(await names('trashed = false')).not.toContain(nameOf(fx.trashedFileId));

    const after = await call(FILES, {}, { q: "modifiedTime > '2024-01-01T00:00:00'", pageSize: 1000, fields: 'files(modifiedTime)' });
    expect(after.body.files.length).toBeGreaterThan(0);
    expect(after.body.files.every((f: { modifiedTime: string }) => f.modifiedTime > '2024-01-01T00:00:00')).toBe(true);
    const before = await names("modifiedTime <= '2024-01-01'");
    expect(before.length + after.body.files.length).toBe(sb.data.files.filter((f) => !f.driveId).length);
    expect((await names("modifiedTime >= '2024-01-01T00:00:00Z' and modifiedTime < '2030-01-01T00:00:00+02:00'")).length).toBe(after.body.files.length);

    expect(await names('starred = true')).toContain('Budget 2024');
    expect(await names('sharedWithMe = true')).toContain('Partner agreement.pdf');
    expect(await names("properties has { key='department' and value='finance' }")).toContain('Quarterly plan');
    expect(await names("fullText contains 'quarter'")).toContain('Quarterly plan');
    expect(await names("'me' in owners and name = 'Partner agreement.pdf'")).toEqual([]);

    const combined = await names(`(mimeType = '${DOC}' or mimeType = '${SHEET}') and not name contains 'budget' and trashed = false`);
    expect(combined).toContain('Quarterly plan');
    expect(combined).not.toContain('Budget 2024');
    const expected = sb.data.files.filter(
      (f) => !f.driveId && !f.trashed && (f.mimeType === DOC || f.mimeType === SHEET) && !/(^|[^a-z0-9])budget/i.test(f.name),
    );
    expect(combined.sort()).toEqual(expected.map((f) => f.name).sort());
    expect(await names(`NOT trashed = true AND name = 'Budget 2024' OR name = 'notes.txt'`)).toEqual(expect.arrayContaining(['Budget 2024', 'notes.txt']));
  });

  it('q: malformed queries are 400 Invalid Value', async () => {
    for (const q of [
      "name contains 'x' and (",
      "name contains 'unterminated",
      "colour = 'red'",
      'trashed contains true',
      "trashed = 'false'",
      "modifiedTime > 'yesterday'",
      "'abc' in name",
      "name = 'a' name = 'b'",
      'and',
    ]) {
      const r = await call(FILES, {}, { q });
      expectError(r, 400, 'invalid', 'Invalid Value');
      expect(r.body.error.errors[0].location).toBe('q');
    }
  });

  it('orderBy: keys, desc, folders first; unknown keys are 400', async () => {
    const byName = await call(FILES, {}, { orderBy: 'name', pageSize: 1000, fields: 'files(name)' });
    const lower = byName.body.files.map((f: { name: string }) => f.name.toLowerCase());
    expect(lower).toEqual([...lower].sort());
    const desc = await call(FILES, {}, { orderBy: 'modifiedTime desc', pageSize: 1000, fields: 'files(modifiedTime)' });
    const times = desc.body.files.map((f: { modifiedTime: string }) => f.modifiedTime);
    expect(times).toEqual([...times].sort().reverse());
    const folderFirst = await call(FILES, {}, { orderBy: 'folder,name desc', pageSize: 1000, fields: 'files(mimeType,name)' });
    const kinds = folderFirst.body.files.map((f: { mimeType: string }) => (f.mimeType === FOLDER ? 0 : 1));
    expect(kinds).toEqual([...kinds].sort());
    const natural = await call(FILES, {}, { orderBy: 'name_natural,createdTime desc,quotaBytesUsed,starred,viewedByMeTime,recency', fields: 'files(id)' });
    expect(natural.status).toBe(200);
    expectError(await call(FILES, {}, { orderBy: 'size' }), 400, 'invalid');
    expectError(await call(FILES, {}, { orderBy: 'name sideways' }), 400, 'invalid');
  });

  it('corpora and driveId follow Drive rules', async () => {
    const drive = fx.sharedDriveId;
    const noCorpora = await call(FILES, {}, { driveId: drive, includeItemsFromAllDrives: true, supportsAllDrives: true });
    expectError(noCorpora, 400, 'teamDriveIdRequiresTeamDriveCorpora', 'The driveId parameter must be specified if and only if corpora is set to drive.');
    expectError(
      await call(FILES, {}, { corpora: 'drive', includeItemsFromAllDrives: true, supportsAllDrives: true }),
      400,
      'teamDriveIdRequiresTeamDriveCorpora',
    );
    const driveMessage = 'The includeItemsFromAllDrives parameter must be set to true when driveId is specified or corpora contains drive or allDrives.';
    expectError(await call(FILES, {}, { corpora: 'drive', driveId: drive, supportsAllDrives: true }), 403, 'forbidden', driveMessage);
    expectError(await call(FILES, {}, { corpora: 'allDrives' }), 403, 'forbidden', driveMessage);
    expectError(await call(FILES, {}, { corpora: 'allDrives', includeItemsFromAllDrives: false, supportsAllDrives: true }), 403, 'forbidden', driveMessage);
    const all = await call(
      FILES,
      {},
      { corpora: 'allDrives', includeItemsFromAllDrives: true, supportsAllDrives: true, pageSize: 1000, fields: 'files(id,driveId)' },
    );
    expect(all.body.files.some((f: { driveId?: string }) => f.driveId === drive)).toBe(true);
    expectError(
      await call(FILES, {}, { corpora: 'drive', driveId: drive, includeItemsFromAllDrives: true }),
      404,
      'notFound',
      `Shared drive not found: ${drive}`,
    );
    expectError(
      await call(FILES, {}, { corpora: 'drive', driveId: '0AnopeUk9PVA', includeItemsFromAllDrives: true, supportsAllDrives: true }),
      404,
      'notFound',
    );
    const inDrive = await call(
      FILES,
      {},
      { corpora: 'drive', driveId: drive, includeItemsFromAllDrives: true, supportsAllDrives: true, pageSize: 1000, fields: 'files(id,driveId)' },
    );
    expect(inDrive.body.files.length).toBe(sb.data.files.filter((f) => f.driveId === drive).length);
    expect(inDrive.body.files.every((f: { driveId: string }) => f.driveId === drive)).toBe(true);
    expectError(await call(FILES, {}, { corpora: 'everything' }), 400, 'invalid');
    const appData = await call(FILES, {}, { spaces: 'appDataFolder' });
    expect(appData.body.files).toEqual([]);
    const domain = await call(FILES, {}, { corpora: 'domain', pageSize: 1000, fields: 'files(id)' });
    expect(domain.body.files.length).toBe(sb.data.files.filter((f) => !f.driveId).length);
  });
});

describe('partial responses (fields)', () => {
  it('selects with *, lists, paths and nested sub-selections', async () => {
    const full = await call(FILE, { fileId: fx.binaryFileId }, { fields: '*' });
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({
      kind: 'drive#file',
      id: fx.binaryFileId,
      mimeType: 'application/pdf',
      size: '1234567',
      ownedByMe: true,
      headRevisionId: expect.any(String),
    });
    expect(full.body.md5Checksum).toBe(createHash('md5').update(sb.contentOf(fx.binaryFileId)).digest('hex'));
    expect(full.body.sha256Checksum).toBe(createHash('sha256').update(sb.contentOf(fx.binaryFileId)).digest('hex'));
    expect(full.body.owners[0]).toMatchObject({ kind: 'drive#user', me: true });
    expect(full.body.capabilities.canEdit).toBe(true);

    const slim = await call(FILES, {}, { pageSize: 2, fields: 'nextPageToken,files(id,name)' });
    expect(Object.keys(slim.body).sort()).toEqual(['files', 'nextPageToken']);
    expect(Object.keys(slim.body.files[0]).sort()).toEqual(['id', 'name']);
    const noToken = await call(FILES, {}, { pageSize: 2, fields: 'files(id)' });
    expect(noToken.body.nextPageToken).toBeUndefined();
    const path = await call(FILES, {}, { pageSize: 3, fields: 'files/name' });
    expect(path.body.files.every((f: object) => Object.keys(f).join() === 'name')).toBe(true);
    const nested = await call(FILES, {}, { q: `'${fx.folderId}' in parents`, fields: 'files(id, owners(displayName), capabilities/canEdit)' });
    for (const f of nested.body.files) {
      expect(Object.keys(f).sort()).toEqual(['capabilities', 'id', 'owners']);
      expect(Object.keys(f.owners[0])).toEqual(['displayName']);
      expect(Object.keys(f.capabilities)).toEqual(['canEdit']);
    }
    const star = await call(FILES, {}, { pageSize: 1, fields: 'kind,files/*' });
    expect(star.body.files[0].createdTime).toEqual(expect.any(String));
    const map = await call(FILE, { fileId: fx.docId }, { fields: 'exportLinks,properties' });
    expect(map.body.exportLinks['application/pdf']).toMatch(/exportFormat=pdf/);
    expect(map.body.properties).toEqual({ department: 'finance', status: 'approved' });
  });

  it('rejects selectors naming fields the resource does not have', async () => {
    for (const fields of ['files(nope)', 'webViewLink', 'files(id', 'files/owners/foo', 'files(name(first))', 'nextPageToken,,files']) {
      const r = await call(FILES, {}, { fields });
      expectError(r, 400, 'invalidParameter', /^Invalid field selection /);
      expect(r.body.error.errors[0].location).toBe('fields');
    }
    expectError(await call(FILES, {}, { fields: 'files(nope)' }), 400, 'invalidParameter', 'Invalid field selection nope');
    expectError(await call(FILE, { fileId: fx.docId }, { fields: 'files' }), 400, 'invalidParameter', 'Invalid field selection files');
  });

  it('prettyPrint=false answers compact JSON', async () => {
    const r = await call(FILE, { fileId: fx.docId }, { prettyPrint: false });
    expect(r.bytes.toString()).not.toContain('\n');
    expect((await call(FILE, { fileId: fx.docId })).bytes.toString()).toContain('\n  "kind"');
    expectError(await call(FILE, { fileId: fx.docId }, { prettyPrint: 'yes' }, { offSpec: true }), 400, 'invalid');
  });
});

describe('files.get', () => {
  it('answers default metadata, the root alias, and 404 for unknown files', async () => {
    const r = await call(FILE, { fileId: fx.docId });
    expect(r.body).toEqual({ kind: 'drive#file', id: fx.docId, name: 'Quarterly plan', mimeType: DOC });
    const root = await call(FILE, { fileId: 'root' }, { fields: 'id,name,mimeType' });
    expect(root.body).toEqual({ id: fx.rootFolderId, name: 'My Drive', mimeType: FOLDER });
    const missing = await call(FILE, { fileId: 'no-such-file' });
    expectError(missing, 404, 'notFound', 'File not found: no-such-file.');
    expect(missing.body.error.errors[0]).toMatchObject({ location: 'fileId', locationType: 'parameter' });
    const removed = await call(FILE, { fileId: fx.removedFileId });
    expectError(removed, 404, 'notFound');
  });

  it('hides shared-drive items from apps without supportsAllDrives', async () => {
    expectError(await call(FILE, { fileId: fx.sharedDriveFileId }), 404, 'notFound');
    const r = await call(FILE, { fileId: fx.sharedDriveFileId }, { supportsAllDrives: true, fields: '*' });
    expect(r.body).toMatchObject({ id: fx.sharedDriveFileId, driveId: fx.sharedDriveId });
    expect(r.body.owners).toBeUndefined();
    expect(r.body.ownedByMe).toBeUndefined();
    const trashed = await call(FILE, { fileId: fx.sharedDriveTrashedFileId }, { supportsAllDrives: true, fields: 'trashed,trashedTime,trashingUser' });
    expect(trashed.body).toMatchObject({ trashed: true, trashedTime: expect.any(String), trashingUser: { me: true } });
    expect((await call(FILE, { fileId: fx.sharedDriveFileId }, { supportsTeamDrives: true })).status).toBe(200);
  });

  it('describes every kind of item as Drive does', async () => {
    const get = async (fileId: string) => (await call(FILE, { fileId }, { fields: '*', supportsAllDrives: true })).body;
    const doc = await get(fx.docId);
    expect(doc.exportLinks[DOCX]).toContain(fx.docId);
    expect(doc.md5Checksum).toBeUndefined();
    expect(new Set(doc.permissions.map((p: { type: string }) => p.type))).toEqual(new Set(['anyone', 'domain', 'group', 'user']));
    const folder = await get(fx.folderId);
    expect(folder).toMatchObject({ mimeType: FOLDER, folderColorRgb: expect.any(String), capabilities: { canListChildren: true } });
    expect(folder.size).toBeUndefined();
    const shortcut = await get(fx.shortcutId);
    expect(shortcut.shortcutDetails).toEqual({ targetId: fx.binaryFileId, targetMimeType: 'application/pdf' });
    const image = await get(fx.imageFileId);
    expect(image.imageMediaMetadata).toMatchObject({ width: 4032, height: 3024 });
    expect(image).toMatchObject({ fileExtension: 'jpg', fullFileExtension: 'jpg', originalFilename: 'IMG_2041.JPG' });
    const partner = await get(fx.sharedWithMeFileId);
    expect(partner).toMatchObject({
      ownedByMe: false,
      sharedWithMeTime: expect.any(String),
      resourceKey: expect.any(String),
      capabilities: { canEdit: false },
    });
    expect(partner.parents).toBeUndefined();
    const trashed = await get(fx.trashedFileId);
    expect(trashed).toMatchObject({ trashed: true, explicitlyTrashed: true });
  });
});

describe('media downloads (alt=media)', () => {
  const media = (fileId: string, range?: string, opts: CallOptions = {}) =>
    call(FILE, { fileId }, { alt: 'media' }, { ...opts, headers: { ...opts.headers, ...(range ? { range } : {}) } });

  it('sends the whole file with its type and length', async () => {
    const r = await media(fx.binaryFileId);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    expect(r.headers.get('content-length')).toBe('1234567');
    expect(r.bytes.equals(sb.contentOf(fx.binaryFileId))).toBe(true);
    expect(r.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await media(fx.textFileId);
    expect(text.bytes.toString('utf8')).toBe(fx.textFileContent);
    expect(text.headers.get('content-type')).toBe('text/plain');
    expect(sb.requests[sb.requests.length - 1]).toMatchObject({
      httpMethod: 'GET',
      path: `/drive/v3/files/${fx.textFileId}`,
      query: { alt: 'media' },
      range: null,
    });
  });

  it('honours single byte ranges with 206, and answers 416 past the end', async () => {
    const total = 1_234_567;
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, total - 1],
      ['bytes=-50', total - 50, total - 1],
      ['bytes=5-5', 5, 5],
      ['bytes=1234000-9999999', 1_234_000, total - 1],
      ['bytes=-5000000', 0, total - 1],
      ['bytes=65530-131080', 65_530, 131_080],
    ];
    for (const [range, start, end] of cases) {
      const r = await media(fx.binaryFileId, range);
      expect(r.status, range).toBe(206);
      expect(r.headers.get('content-range')).toBe(`bytes ${start}-${end}/${total}`);
      expect(r.headers.get('content-length')).toBe(String(end - start + 1));
      expect(r.bytes.equals(sb.contentOf(fx.binaryFileId, start, end)), range).toBe(true);
    }
    expect(sb.requests[sb.requests.length - 1]!.range).toBe('bytes=65530-131080');
    for (const range of [`bytes=${total}-`, 'bytes=2000000-2000010', 'bytes=-0']) {
      const r = await media(fx.binaryFileId, range);
      expectError(r, 416, 'requestedRangeNotSatisfiable');
      expect(r.headers.get('content-range')).toBe(`bytes */${total}`);
    }
    // Malformed or multi-range headers are ignored: the whole body with 200.
    for (const range of ['bytes=9-3', 'items=0-5', 'bytes=0-1,5-6']) {
      const r = await media(fx.binaryFileId, range);
      expect(r.status, range).toBe(200);
      expect(r.bytes.length).toBe(total);
    }
  });

  it('refuses Docs editors files, folders and shortcuts, and 404s unknown files', async () => {
    for (const fileId of [fx.docId, fx.sheetId, fx.folderId, fx.shortcutId]) {
      const r = await media(fileId);
      expectError(r, 403, 'fileNotDownloadable', 'Only files with binary content can be downloaded. Use Export with Docs Editors files.');
      expect(r.body.error.errors[0].location).toBe('alt');
    }
    expectError(await media('no-such-file'), 404, 'notFound');
    expectError(await media(fx.sharedDriveFileId), 404, 'notFound');
    const shared = await call(FILE, { fileId: fx.sharedDriveFileId }, { alt: 'media', supportsAllDrives: true });
    expect(shared.bytes.equals(sb.contentOf(fx.sharedDriveFileId))).toBe(true);
    // A Range header on a metadata request is off-spec (the sandbox ignores it).
    const meta = await call(FILE, { fileId: fx.docId }, {}, { headers: { range: 'bytes=0-1' }, offSpec: true });
    expect(meta.status).toBe(200);
  });
});

describe('files.export', () => {
  const exp = (fileId: string, mimeType: string, range?: string) => call(EXPORT, { fileId }, { mimeType }, range ? { headers: { range } } : {});

  it('converts Docs, Sheets, Slides and Drawings to the formats Drive offers', async () => {
    const pdf = await exp(fx.docId, 'application/pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.bytes.subarray(-6).toString()).toBe('%%EOF\n');
    const txt = await exp(fx.docId, 'text/plain');
    expect(txt.bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(txt.bytes.length).toBeGreaterThanOrEqual(6000);
    expect((await exp(fx.docId, 'text/markdown')).bytes.length).toBeGreaterThan(1000);
    for (const [fileId, type] of [
      [fx.docId, DOCX],
      [fx.docId, 'application/vnd.oasis.opendocument.text'],
      [fx.docId, 'application/epub+zip'],
      [fx.docId, 'application/zip'],
      [fx.sheetId, XLSX],
      [fx.slidesId, PPTX],
    ] as const) {
      const r = await exp(fileId, type);
      expect(r.status, type).toBe(200);
      expect(r.bytes.subarray(0, 4).toString('latin1'), type).toBe('PK\x03\x04');
      expect(r.bytes.subarray(-22, -18).toString('latin1'), type).toBe('PK\x05\x06');
    }
    expect((await exp(fx.docId, 'application/rtf')).bytes.subarray(0, 6).toString()).toBe('{\\rtf1');
    const csv = await exp(fx.sheetId, 'text/csv');
    expect(csv.bytes.toString().split('\r\n')[0]).toBe('Region,Product,Month,Units,Revenue,Note');
    expect(csv.bytes.toString().split('\r\n')).toHaveLength(101);
    expect((await exp(fx.sheetId, 'text/tab-separated-values')).bytes.toString()).toContain('\t');
    expect((await exp(fx.slidesId, 'application/pdf')).bytes.subarray(0, 4).toString()).toBe('%PDF');
    expect((await exp(fx.slidesId, 'text/plain')).bytes.toString()).toContain('Launch deck');
    const png = await exp(fx.drawingId, 'image/png');
    expect(png.bytes.subarray(0, 8)).toEqual(Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'));
    expect((await exp(fx.drawingId, 'image/svg+xml')).bytes.toString()).toMatch(/^<svg /);
    expect((await exp(fx.drawingId, 'image/jpeg')).bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // Deterministic: the same bytes every time.
    expect((await exp(fx.docId, 'application/pdf')).bytes.equals(pdf.bytes)).toBe(true);
  });

  it('honours ranges on exports', async () => {
    const whole = (await exp(fx.docId, 'text/plain')).bytes;
    const part = await exp(fx.docId, 'text/plain', 'bytes=10-29');
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-29/${whole.length}`);
    expect(part.bytes.equals(whole.subarray(10, 30))).toBe(true);
    const past = await exp(fx.docId, 'text/plain', `bytes=${whole.length}-`);
    expectError(past, 416, 'requestedRangeNotSatisfiable');
  });

  it('refuses what Drive refuses', async () => {
    expectError(await exp(fx.sheetId, PPTX), 400, 'badRequest', 'The requested conversion is not supported.');
    expectError(await exp(fx.docId, 'text/csv'), 400, 'badRequest', 'The requested conversion is not supported.');
    expectError(await exp(fx.binaryFileId, 'application/pdf'), 403, 'fileNotExportable', 'Export only supports Docs Editors files.');
    expectError(await exp(fx.folderId, 'application/pdf'), 403, 'fileNotExportable');
    expectError(await exp('no-such-file', 'application/pdf'), 404, 'notFound');
    expectError(await call(EXPORT, { fileId: fx.docId }, {}, { offSpec: true }), 400, 'required', 'Required parameter: mimeType');
    const big = sb.data.files.find((f) => f.id === fx.largeDocId)!;
    expect(big.exportBytes).toBeGreaterThan(EXPORT_SIZE_LIMIT);
    for (const type of ['application/pdf', 'text/plain', DOCX]) {
      expectError(await exp(fx.largeDocId, type), 403, 'exportSizeLimitExceeded', 'This file is too large to be exported.');
    }
    // Shared-drive Docs export without supportsAllDrives (the method has no such parameter).
    expect((await exp(fx.sharedDriveDocId, 'text/plain')).status).toBe(200);
    // Client libraries send alt=media with exports.
    expect((await call(EXPORT, { fileId: fx.docId }, { mimeType: 'text/plain', alt: 'media' })).status).toBe(200);
  });
});

describe('drives', () => {
  const DRIVES = '/drive/v3/drives';
  const DRIVE = '/drive/v3/drives/{driveId}';

  it('lists, pages, searches and gets shared drives', async () => {
    const r = await call(DRIVES);
    expect(r.body.kind).toBe('drive#driveList');
    expect(r.body.drives).toHaveLength(3);
    expect(Object.keys(r.body.drives[0]).sort()).toEqual(['id', 'kind', 'name']);
    const ids: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = await call(DRIVES, {}, { pageSize: 1, ...(pageToken ? { pageToken } : {}) });
      ids.push(...page.body.drives.map((d: { id: string }) => d.id));
      pageToken = page.body.nextPageToken;
    } while (pageToken);
    expect(ids).toEqual(r.body.drives.map((d: { id: string }) => d.id));
    const eng = await call(DRIVES, {}, { q: "name contains 'eng'" });
    expect(eng.body.drives.map((d: { name: string }) => d.name)).toEqual(['Engineering']);
    const hidden = await call(DRIVES, {}, { q: 'hidden = true', fields: 'drives(name,hidden)' });
    expect(hidden.body.drives).toEqual([{ name: 'Marketing', hidden: true }]);
    expect((await call(DRIVES, {}, { q: 'memberCount > 2 and not hidden = true', useDomainAdminAccess: true })).status).toBe(200);
    expectError(await call(DRIVES, {}, { q: 'name ~ 1' }), 400, 'invalid', 'Invalid Value');
    expectError(await call(DRIVES, {}, { pageSize: 0 }, { offSpec: true }), 400, 'invalid', "Invalid value '0'. Values must be within the range: [1, 100]");

    const one = await call(DRIVE, { driveId: fx.sharedDriveId }, { fields: '*' });
    expect(one.body).toMatchObject({
      kind: 'drive#drive',
      id: fx.sharedDriveId,
      name: 'Engineering',
      capabilities: { canManageMembers: true },
      restrictions: expect.any(Object),
    });
    expectError(await call(DRIVE, { driveId: 'nope' }), 404, 'notFound', 'Shared drive not found: nope');
  });
});

describe('permissions', () => {
  const PERMS = '/drive/v3/files/{fileId}/permissions';
  const PERM = '/drive/v3/files/{fileId}/permissions/{permissionId}';

  it('lists and gets permissions of files and shared drives', async () => {
    const r = await call(PERMS, { fileId: fx.permissionsFileId });
    expect(r.body.kind).toBe('drive#permissionList');
    expect(r.body.permissions.map((p: { type: string }) => p.type)).toEqual(expect.arrayContaining(['user', 'group', 'domain', 'anyone']));
    for (const p of r.body.permissions) expect(Object.keys(p).sort()).toEqual(['id', 'kind', 'role', 'type']);
    const owner = r.body.permissions.find((p: { role: string }) => p.role === 'owner');
    expect(owner.id).toBe(sb.data.me.permissionId);
    const full = await call(PERMS, { fileId: fx.permissionsFileId }, { fields: '*' });
    expect(full.body.permissions.find((p: { type: string }) => p.type === 'anyone')).toMatchObject({ id: 'anyoneWithLink', allowFileDiscovery: false });
    const paged = await call(PERMS, { fileId: fx.permissionsFileId }, { pageSize: 2 });
    expect(paged.body.permissions).toHaveLength(2);
    const rest = await call(PERMS, { fileId: fx.permissionsFileId }, { pageSize: 100, pageToken: paged.body.nextPageToken });
    expect(rest.body.permissions.length + 2).toBe(r.body.permissions.length);

    const one = await call(PERM, { fileId: fx.permissionsFileId, permissionId: owner.id }, { fields: 'id,role,emailAddress' });
    expect(one.body).toEqual({ id: owner.id, role: 'owner', emailAddress: sb.data.me.emailAddress });
    expectError(await call(PERM, { fileId: fx.permissionsFileId, permissionId: 'nope' }), 404, 'notFound', 'Permission not found: nope.');
    expectError(await call(PERMS, { fileId: 'no-such-file' }), 404, 'notFound');

    expectError(await call(PERMS, { fileId: fx.sharedDriveFileId }), 404, 'notFound');
    const inherited = await call(PERMS, { fileId: fx.sharedDriveFileId }, { supportsAllDrives: true, fields: 'permissions(id,permissionDetails)' });
    expect(inherited.body.permissions[0].permissionDetails[0]).toMatchObject({ inherited: true, inheritedFrom: fx.sharedDriveId, permissionType: 'member' });
    const members = await call(PERMS, { fileId: fx.sharedDriveId }, { supportsAllDrives: true, fields: 'permissions(role,emailAddress)' });
    expect(members.body.permissions).toContainEqual({ role: 'organizer', emailAddress: sb.data.me.emailAddress });
    expectError(await call(PERMS, { fileId: fx.sharedWithMeFileId }), 403, 'insufficientFilePermissions');
    // Above the maximum Drive coerces to it; below the minimum it refuses.
    expect((await call(PERMS, { fileId: fx.permissionsFileId }, { pageSize: 101 }, { offSpec: true })).status).toBe(200);
    expectError(await call(PERMS, { fileId: fx.permissionsFileId }, { pageSize: 0 }, { offSpec: true }), 400, 'invalid', /\[1, 100\]/);
  });
});

describe('comments and replies', () => {
  const COMMENTS = '/drive/v3/files/{fileId}/comments';
  const COMMENT = '/drive/v3/files/{fileId}/comments/{commentId}';
  const REPLIES = '/drive/v3/files/{fileId}/comments/{commentId}/replies';
  const REPLY = '/drive/v3/files/{fileId}/comments/{commentId}/replies/{replyId}';
  const FIELDS_REQUIRED = "The 'fields' parameter is required for this method.";

  it('requires fields on all four methods', async () => {
    const comment = sb.data.comments.get(fx.commentedFileId)![0]!;
    const reply = comment.replies[0]!;
    for (const [template, params] of [
      [COMMENTS, { fileId: fx.commentedFileId }],
      [COMMENT, { fileId: fx.commentedFileId, commentId: comment.id }],
      [REPLIES, { fileId: fx.commentedFileId, commentId: comment.id }],
      [REPLY, { fileId: fx.commentedFileId, commentId: comment.id, replyId: reply.id }],
    ] as const) {
      const r = await call(template, params);
      expectError(r, 400, 'required', FIELDS_REQUIRED);
      expect(r.body.error.errors[0].location).toBe('fields');
    }
  });

  it('lists comments 20 at a time, hides deleted ones unless asked', async () => {
    const seeded = sb.data.comments.get(fx.commentedFileId)!;
    const live = seeded.filter((c) => !c.deleted);
    expect(seeded.length).toBe(25);
    const first = await call(COMMENTS, { fileId: fx.commentedFileId }, { fields: 'nextPageToken,comments(id,content,deleted,replies(id))' });
    expect(first.body.comments).toHaveLength(20);
    const second = await call(COMMENTS, { fileId: fx.commentedFileId }, { fields: 'nextPageToken,comments(id)', pageToken: first.body.nextPageToken });
    expect(second.body.nextPageToken).toBeUndefined();
    expect([...first.body.comments, ...second.body.comments].map((c: { id: string }) => c.id)).toEqual(live.map((c) => c.id));
    expect(first.body.comments[0].replies.length).toBe(seeded[0]!.replies.filter((r) => !r.deleted).length);

    const withDeleted = await call(COMMENTS, { fileId: fx.commentedFileId }, { fields: '*', includeDeleted: true, pageSize: 100 });
    expect(withDeleted.body.comments).toHaveLength(25);
    const deleted = withDeleted.body.comments.filter((c: { deleted: boolean }) => c.deleted);
    expect(deleted.length).toBe(3);
    for (const c of deleted) {
      expect(c.content).toBeUndefined();
      expect(c.htmlContent).toBeUndefined();
    }
    const live0 = withDeleted.body.comments[0];
    expect(live0).toMatchObject({
      kind: 'drive#comment',
      author: { kind: 'drive#user', displayName: expect.any(String) },
      anchor: expect.any(String),
      quotedFileContent: { mimeType: 'text/html' },
    });
    expect(live0.author.emailAddress).toBeUndefined();

    const cutoff = seeded[20]!.modifiedTime;
    const since = await call(COMMENTS, { fileId: fx.commentedFileId }, { fields: 'comments(modifiedTime)', startModifiedTime: cutoff, pageSize: 100 });
    expect(since.body.comments.length).toBe(live.filter((c) => c.modifiedTime >= cutoff).length);
    expectError(await call(COMMENTS, { fileId: fx.commentedFileId }, { fields: 'comments(id)', startModifiedTime: 'yesterday' }), 400, 'invalid');
    expectError(await call(COMMENTS, { fileId: 'no-such-file' }, { fields: 'comments(id)' }), 404, 'notFound');
    const none = await call(COMMENTS, { fileId: fx.folderId }, { fields: 'comments(id)' });
    expect(none.body.comments).toEqual([]);
  });

  it('gets comments and lists/gets replies, deleted ones on request', async () => {
    const seeded = sb.data.comments.get(fx.commentedFileId)!;
    const first = seeded[0]!;
    const one = await call(COMMENT, { fileId: fx.commentedFileId, commentId: first.id }, { fields: 'id,content,resolved' });
    expect(one.body).toEqual({ id: first.id, content: first.content, resolved: first.resolved });
    const gone = seeded.find((c) => c.deleted)!;
    expectError(await call(COMMENT, { fileId: fx.commentedFileId, commentId: gone.id }, { fields: 'id' }), 404, 'notFound', `Comment not found: ${gone.id}.`);
    expect((await call(COMMENT, { fileId: fx.commentedFileId, commentId: gone.id }, { fields: 'id,deleted', includeDeleted: true })).body).toEqual({
      id: gone.id,
      deleted: true,
    });

    const replies = await call(REPLIES, { fileId: fx.commentedFileId, commentId: first.id }, { fields: 'replies(id,content,deleted,author/displayName)' });
    expect(replies.body.replies.map((r: { id: string }) => r.id)).toEqual(first.replies.filter((r) => !r.deleted).map((r) => r.id));
    const all = await call(REPLIES, { fileId: fx.commentedFileId, commentId: first.id }, { fields: 'replies(id,deleted)', includeDeleted: true, pageSize: 2 });
    expect(all.body.replies).toHaveLength(2);
    const deletedReply = first.replies.find((r) => r.deleted)!;
    expectError(
      await call(REPLY, { fileId: fx.commentedFileId, commentId: first.id, replyId: deletedReply.id }, { fields: 'id' }),
      404,
      'notFound',
      `Reply not found: ${deletedReply.id}.`,
    );
    const shown = await call(REPLY, { fileId: fx.commentedFileId, commentId: first.id, replyId: deletedReply.id }, { fields: '*', includeDeleted: true });
    expect(shown.body).toMatchObject({ kind: 'drive#reply', id: deletedReply.id, deleted: true });
    expect(shown.body.content).toBeUndefined();
    const resolving = seeded.flatMap((c) => c.replies).find((r) => r.action === 'resolve')!;
    const owner = seeded.find((c) => c.replies.includes(resolving))!;
    expect((await call(REPLY, { fileId: fx.commentedFileId, commentId: owner.id, replyId: resolving.id }, { fields: 'action' })).body).toEqual({
      action: 'resolve',
    });
  });
});

describe('revisions', () => {
  const REVS = '/drive/v3/files/{fileId}/revisions';
  const REV = '/drive/v3/files/{fileId}/revisions/{revisionId}';

  it('lists and gets revisions, with bytes for binary revisions', async () => {
    const r = await call(REVS, { fileId: fx.revisionsFileId });
    expect(r.body.kind).toBe('drive#revisionList');
    expect(r.body.revisions).toHaveLength(3);
    expect(Object.keys(r.body.revisions[0]).sort()).toEqual(['id', 'kind', 'mimeType', 'modifiedTime']);
    const full = await call(REVS, { fileId: fx.revisionsFileId }, { fields: '*' });
    const head = full.body.revisions[2];
    expect(head).toMatchObject({ size: '1234567', keepForever: false, md5Checksum: createHash('md5').update(sb.contentOf(fx.revisionsFileId)).digest('hex') });
    expect(full.body.revisions[0].keepForever).toBe(true);
    const file = await call(FILE, { fileId: fx.revisionsFileId }, { fields: 'headRevisionId' });
    expect(file.body.headRevisionId).toBe(head.id);

    const headBytes = await call(REV, { fileId: fx.revisionsFileId, revisionId: head.id }, { alt: 'media' });
    expect(headBytes.bytes.equals(sb.contentOf(fx.revisionsFileId))).toBe(true);
    const old = await call(REV, { fileId: fx.revisionsFileId, revisionId: full.body.revisions[0].id }, { alt: 'media' }, { headers: { range: 'bytes=0-99' } });
    expect(old.status).toBe(206);
    expect(old.headers.get('content-range')).toBe(`bytes 0-99/${full.body.revisions[0].size}`);

    const one = await call(REV, { fileId: fx.revisionsFileId, revisionId: head.id });
    expect(one.body).toEqual({ kind: 'drive#revision', id: head.id, mimeType: 'application/pdf', modifiedTime: head.modifiedTime });
    expectError(await call(REV, { fileId: fx.revisionsFileId, revisionId: 'nope' }), 404, 'notFound', 'Revision not found: nope.');

    const doc = await call(REVS, { fileId: fx.docId }, { fields: 'nextPageToken,revisions(id,exportLinks,published)', pageSize: 1 });
    expect(doc.body.revisions[0].id).toMatch(/^\d+$/);
    expect(doc.body.revisions[0].exportLinks['application/pdf']).toContain('revision=');
    expect(typeof doc.body.nextPageToken).toBe('string');
    expectError(await call(REV, { fileId: fx.docId, revisionId: doc.body.revisions[0].id }, { alt: 'media' }), 403, 'fileNotDownloadable');
    expectError(await call(REVS, { fileId: fx.folderId }), 403, 'revisionsNotSupported');
    expectError(await call(REVS, { fileId: fx.docId }, { pageSize: 0 }, { offSpec: true }), 400, 'invalid', /\[1, 1000\]/);
  });
});

describe('changes', () => {
  const CHANGES = '/drive/v3/changes';
  const START = '/drive/v3/changes/startPageToken';

  async function walk(query: Query, pageSize: number): Promise<{ changes: any[]; newStartPageToken: string }> {
    const changes: any[] = [];
    let pageToken = '1';
    for (;;) {
      const r = await call(CHANGES, {}, { ...query, pageToken, pageSize });
      expect(r.status).toBe(200);
      expect(r.body.changes.length).toBeLessThanOrEqual(pageSize);
      changes.push(...r.body.changes);
      if (r.body.nextPageToken === undefined) {
        expect(typeof r.body.newStartPageToken).toBe('string');
        return { changes, newStartPageToken: r.body.newStartPageToken };
      }
      expect(r.body.newStartPageToken).toBeUndefined();
      pageToken = r.body.nextPageToken;
    }
  }

  it('hands out a start token and walks the log to it, each item once', async () => {
    const start = await call(START);
    expect(start.body).toEqual({ kind: 'drive#startPageToken', startPageToken: String(sb.data.changes.length + 1) });
    const { changes, newStartPageToken } = await walk({}, 5);
    expect(newStartPageToken).toBe(start.body.startPageToken);
    const ids = changes.map((c) => c.fileId);
    expect(new Set(ids).size).toBe(ids.length);
    const myFileIds = new Set(sb.data.changes.filter((c) => c.changeType === 'file' && c.driveId === undefined).map((c) => c.fileId));
    expect(new Set(ids)).toEqual(myFileIds);
    const removal = changes.find((c) => c.fileId === fx.removedFileId);
    expect(removal).toMatchObject({ kind: 'drive#change', changeType: 'file', removed: true });
    expect(removal.file).toBeUndefined();
    const trashed = changes.find((c) => c.fileId === fx.trashedFileId);
    expect(trashed).toMatchObject({ removed: false, file: { id: fx.trashedFileId } });
    const times = changes.map((c) => c.time);
    expect(times).toEqual([...times].sort());

    const caughtUp = await call(CHANGES, {}, { pageToken: start.body.startPageToken });
    expect(caughtUp.body).toEqual({ kind: 'drive#changeList', newStartPageToken: start.body.startPageToken, changes: [] });
  });

  it('scopes the log with includeRemoved, shared-drive flags, driveId and restrictToMyDrive', async () => {
    const noRemovals = await walk({ includeRemoved: false }, 50);
    expect(noRemovals.changes.some((c) => c.removed)).toBe(false);
    const everything = await walk(
      {
        includeItemsFromAllDrives: true,
        supportsAllDrives: true,
        fields: 'nextPageToken,newStartPageToken,changes(changeType,fileId,driveId,drive(name),file(driveId))',
      },
      40,
    );
    expect(everything.changes.some((c) => c.changeType === 'drive' && c.drive?.name === 'Engineering')).toBe(true);
    expect(everything.changes.some((c) => c.file?.driveId === fx.sharedDriveId)).toBe(true);
    const oneDrive = await walk(
      {
        driveId: fx.sharedDriveId,
        supportsAllDrives: true,
        includeItemsFromAllDrives: true,
        fields: 'nextPageToken,newStartPageToken,changes(fileId,driveId,changeType)',
      },
      10,
    );
    const driveFiles = new Set(sb.data.files.filter((f) => f.driveId === fx.sharedDriveId).map((f) => f.id));
    expect(oneDrive.changes.filter((c) => c.changeType === 'file').every((c) => driveFiles.has(c.fileId))).toBe(true);
    expect(oneDrive.changes.length).toBe(driveFiles.size + 1);
    expectError(await call(CHANGES, {}, { pageToken: '1', driveId: fx.sharedDriveId }), 404, 'notFound');
    const mine = await walk({ restrictToMyDrive: true }, 100);
    expect(mine.changes.some((c) => c.fileId === fx.sharedWithMeFileId)).toBe(false);
    expect(mine.changes.some((c) => c.fileId === fx.docId)).toBe(true);
  });

  it('requires a valid pageToken', async () => {
    expectError(await call(CHANGES, {}, {}, { offSpec: true }), 400, 'required', 'Required parameter: pageToken');
    expectError(await call(CHANGES, {}, { pageToken: 'abc' }), 400, 'invalid', 'Invalid Value');
    expectError(await call(CHANGES, {}, { pageToken: '0' }), 400, 'invalid');
    expectError(await call(CHANGES, {}, { pageToken: '1', pageSize: 0 }, { offSpec: true }), 400, 'invalid', /\[1, 1000\]/);
    const drive = await call(START, {}, { driveId: fx.sharedDriveId, supportsAllDrives: true });
    expect(drive.body.startPageToken).toMatch(/^\d+$/);
  });
});

describe('about', () => {
  it('requires fields, and answers everything with *', async () => {
    expectError(await call('/drive/v3/about'), 400, 'required', "The 'fields' parameter is required for this method.");
    const r = await call('/drive/v3/about', {}, { fields: '*' });
    for (const key of [
      'kind',
      'user',
      'storageQuota',
      'importFormats',
      'exportFormats',
      'maxImportSizes',
      'maxUploadSize',
      'appInstalled',
      'canCreateDrives',
      'folderColorPalette',
      'driveThemes',
    ]) {
      expect(r.body).toHaveProperty(key);
    }
    expect(r.body.user).toMatchObject({ me: true, emailAddress: sb.data.me.emailAddress });
    expect(r.body.exportFormats[DOC]).toEqual(expect.arrayContaining(['application/pdf', 'text/plain', DOCX]));
    expect(r.body.exportFormats[SHEET]).toEqual(expect.arrayContaining(['application/pdf', 'text/csv', XLSX]));
    expect(Number(r.body.storageQuota.usage)).toBeGreaterThan(LARGE);
    const some = await call('/drive/v3/about', {}, { fields: 'user(displayName),storageQuota/limit' });
    expect(some.body).toEqual({ user: { displayName: sb.data.me.displayName }, storageQuota: { limit: String(15 * 1024 ** 3) } });
    expectError(await call('/drive/v3/about', {}, { fields: 'files' }), 400, 'invalidParameter');
  });
});

describe('faults', () => {
  it('answers injected statuses for the next count requests under a path', async () => {
    sb.addFault({ path: '/drive/v3/drives', status: 429, count: 2, retryAfter: 3 });
    for (let i = 0; i < 2; i++) {
      const r = await call('/drive/v3/drives');
      expectError(r, 429, 'rateLimitExceeded');
      expect(r.headers.get('retry-after')).toBe('3');
    }
    expect((await call('/drive/v3/drives')).status).toBe(200);
    sb.addFault({ path: '/drive/v3/files', status: 500 });
    expect((await call('/drive/v3/drives')).status).toBe(200);
    expectError(await call(FILE, { fileId: fx.docId }), 500, 'backendError');
    sb.addFault({ path: '/drive/v3/files', status: 403, reason: 'userRateLimitExceeded' });
    expectError(await call(FILES), 403, 'userRateLimitExceeded');
    sb.addFault({ path: '/drive/v3/about', status: 429 });
    expect((await call('/drive/v3/about', {}, { fields: 'kind' })).headers.get('retry-after')).toBe('1');
    expect(() => sb.addFault({ path: '/x', status: 200 })).toThrow(RangeError);
  });

  it('truncates media mid-body after full headers, without touching metadata requests', async () => {
    const fileId = fx.binaryFileId;
    sb.addFault({ path: `/drive/v3/files/${fileId}`, status: 200, truncateAfterBytes: 100_000 });
    expect((await call(FILE, { fileId })).status).toBe(200);
    const outcome = await new Promise<{ status: number; length: string | undefined; received: number; error: boolean }>((resolve) => {
      const req = httpRequest(`${sb.url}/drive/v3/files/${fileId}?alt=media`, { headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
        let received = 0;
        res.on('data', (chunk: Buffer) => (received += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, length: res.headers['content-length'], received, error: false }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, length: res.headers['content-length'], received, error: true }));
        res.on('aborted', () => undefined);
      });
      req.on('error', () => resolve({ status: 0, length: undefined, received: 0, error: true }));
      req.end();
    });
    expect(outcome).toEqual({ status: 200, length: '1234567', received: 100_000, error: true });
    // fetch sees the premature close as a failed body read.
    sb.addFault({ path: `/drive/v3/files/${fileId}`, status: 206, truncateAfterBytes: 10 });
    const res = await fetch(`${sb.url}/drive/v3/files/${fileId}?alt=media`, { headers: { authorization: `Bearer ${TOKEN}` } });
    await expect(res.arrayBuffer()).rejects.toThrow();
    // Exports are media too.
    sb.addFault({ path: '/drive/v3/files', status: 200, truncateAfterBytes: 0 });
    const exp = await fetch(`${sb.url}/drive/v3/files/${fx.docId}/export?mimeType=text/plain`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(exp.status).toBe(200);
    await expect(exp.arrayBuffer()).rejects.toThrow();
    expect((await call(FILE, { fileId }, { alt: 'media' })).bytes.length).toBe(1_234_567);
  });
});

describe('stall faults', () => {
  it('stall media mid-body after full headers and keep the connection open, without touching metadata requests', async () => {
    const fileId = fx.binaryFileId;
    sb.addFault({ path: `/drive/v3/files/${fileId}`, status: 200, stallAfterBytes: 1000 });
    expect((await call(FILE, { fileId })).status).toBe(200);
    const outcome = await new Promise<{ status: number; length: string | undefined; received: number; ended: boolean }>((resolve, reject) => {
      const req = httpRequest(`${sb.url}/drive/v3/files/${fileId}?alt=media`, { headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
        let received = 0;
        let ended = false;
        res.on('data', (chunk: Buffer) => (received += chunk.length));
        res.on('end', () => (ended = true));
        res.on('error', () => undefined);
        // Long after the first 1000 bytes: still open, nothing more sent.
        setTimeout(() => {
          resolve({ status: res.statusCode ?? 0, length: res.headers['content-length'], received, ended: ended || res.destroyed });
          req.destroy();
        }, 400);
      });
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.end();
    });
    expect(outcome).toEqual({ status: 200, length: '1234567', received: 1000, ended: false });
    // Consumed: the next download is whole.
    expect((await call(FILE, { fileId }, { alt: 'media' })).bytes.length).toBe(1_234_567);
    expect(() => sb.addFault({ path: '/x', status: 200, stallAfterBytes: 1, truncateAfterBytes: 1 })).toThrow(RangeError);
    expect(() => sb.addFault({ path: '/x', status: 500, stallAfterBytes: 1 })).toThrow(RangeError);
    expect(() => sb.addFault({ path: '/x', status: 200, stallAfterBytes: -1 })).toThrow(RangeError);
  });
});

describe('determinism', () => {
  it('same seed and sizes give identical data and answers; another seed differs', async () => {
    const options: DriveSandboxOptions = { token: TOKEN, seed: 7, files: 40, drives: 2 };
    const a = await startSandbox(options);
    const b = await startSandbox(options);
    const c = await startSandbox({ ...options, seed: 8 });
    try {
      expect(a.data.files.map((f) => f.id)).toEqual(b.data.files.map((f) => f.id));
      expect(JSON.stringify([...a.data.comments])).toBe(JSON.stringify([...b.data.comments]));
      expect(a.data.files).toHaveLength(40);
      expect(a.data.drives).toHaveLength(2);
      expect(c.data.files.map((f) => f.id)).not.toEqual(a.data.files.map((f) => f.id));
      for (const q of [
        { fields: '*', pageSize: 1000 },
        { fields: '*', includeItemsFromAllDrives: true, supportsAllDrives: true, corpora: 'allDrives' },
      ] as Query[]) {
        const ra = await call(FILES, {}, q, { sandbox: a });
        const rb = await call(FILES, {}, q, { sandbox: b });
        expect(ra.bytes.equals(rb.bytes)).toBe(true);
      }
      const binary = a.data.files.find((f) => f.content?.kind === 'pattern')!;
      expect(a.contentOf(binary.id).equals(b.contentOf(binary.id))).toBe(true);
      const exA = await call(EXPORT, { fileId: a.data.fixtures.sheetId }, { mimeType: XLSX }, { sandbox: a });
      const exB = await call(EXPORT, { fileId: b.data.fixtures.sheetId }, { mimeType: XLSX }, { sandbox: b });
      expect(exA.bytes.equals(exB.bytes)).toBe(true);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});

describe('large media', () => {
  it('streams a 256 MiB file with bounded memory, byte-exact', async () => {
    const fileId = sb.largeFileId!;
    expect(fileId).toEqual(expect.any(String));
    const meta = await call(FILE, { fileId }, { fields: 'name,size,mimeType' });
    expect(meta.body).toEqual({ name: 'large.bin', size: String(LARGE), mimeType: 'application/octet-stream' });
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const md5 = createHash('md5');
    const samples = [0, 65_535, 1_000_003, LARGE / 2 + 17, LARGE - 4096];
    const sampled = new Map<number, Buffer>();
    const received = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${sb.url}/drive/v3/files/${fileId}?alt=media`, { headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-length']).toBe(String(LARGE));
        let at = 0;
        res.on('data', (chunk: Buffer) => {
          for (const s of samples) if (s >= at && s + 64 <= at + chunk.length) sampled.set(s, Buffer.from(chunk.subarray(s - at, s - at + 64)));
          md5.update(chunk);
          at += chunk.length;
          if ((at & 0xfffff) < chunk.length) peak = Math.max(peak, process.memoryUsage().rss);
        });
        res.on('end', () => resolve(at));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    expect(received).toBe(LARGE);
    expect(peak - baseline, `RSS grew by ${((peak - baseline) / 2 ** 20).toFixed(0)} MiB`).toBeLessThan(96 * 1024 * 1024);
    for (const [at, bytes] of sampled) expect(bytes.equals(sb.contentOf(fileId, at, at + 63)), `bytes at ${at}`).toBe(true);
    expect(sampled.size).toBeGreaterThan(0);
    const checksum = await call(FILE, { fileId }, { fields: 'md5Checksum' });
    expect(checksum.body.md5Checksum).toBe(md5.digest('hex'));

    for (const [start, end] of [
      [0, 1023],
      [LARGE - 1000, LARGE - 1],
      [123_456_789, 123_654_321],
    ] as const) {
      const part = await call(FILE, { fileId }, { alt: 'media' }, { headers: { range: `bytes=${start}-${end}` } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes ${start}-${end}/${LARGE}`);
      expect(part.bytes.equals(sb.contentOf(fileId, start, end))).toBe(true);
    }
  });
});

describe.skipIf(!driveConformance)('request conformance', () => {
  it('every request this suite sent, raw ones included, conforms to the spec unless sent off-spec on purpose', () => {
    expect(sb.requests.length).toBeGreaterThan(200);
    sb.requests.forEach((entry, i) => {
      const problems = validateDriveRequest(entry);
      if (offSpecRequests.has(i)) expect(problems.length, `${entry.path} ${JSON.stringify(entry.query)}`).toBeGreaterThan(0);
      else expect(problems, `${entry.path} ${JSON.stringify(entry.query)}`).toEqual([]);
    });
  });
});

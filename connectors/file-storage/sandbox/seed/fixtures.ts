import { DAY, EPOCH_MS, iso } from '../clock.ts';
import { binaryKind, type BinaryKind, DOCX, FOLDER, GOOGLE_DOC, GOOGLE_DRAWING, GOOGLE_SHEET, GOOGLE_SLIDES, SHORTCUT } from '../mime.ts';
import { Random } from '../prng.ts';
import type { DriveSandboxFixtures, DriveUser, SharedDriveRecord } from '../types.ts';
import { sentence } from '../vocab.ts';
import {
  addPermission,
  type Builder,
  editorSize,
  inheritDrivePermissions,
  LARGE_DOC_EXPORT_BYTES,
  myDrivePermissions,
  newFile,
  patternContent,
  textFileBody,
  userPermission,
} from './builder.ts';

/** The fixture items tests rely on (ids exposed as data.fixtures). */
export type SeededFixtures = Omit<DriveSandboxFixtures, 'removedFileId'>;

export function buildFixtures(b: Builder, seed: number): SeededFixtures {
  const rng = Random.derive(seed, 'fixtures');
  const colleague = b.users[1] as DriveUser;
  const t = (daysAgo: number) => EPOCH_MS - Math.round(daysAgo * DAY);

  const folder = newFile(b, {
    name: 'Projects',
    mimeType: FOLDER,
    parents: [b.root.id],
    ownerEmail: b.me.emailAddress,
    createdTime: iso(t(700)),
    modifiedTime: iso(t(30)),
    folderColorRgb: '#4986e7',
    viewedByMeTime: iso(t(2)),
  });
  const nested = newFile(b, {
    name: 'Archive 2023',
    mimeType: FOLDER,
    parents: [folder.id],
    ownerEmail: b.me.emailAddress,
    createdTime: iso(t(650)),
    modifiedTime: iso(t(400)),
    folderColorRgb: '#8f8f8f',
  });
  const doc = newFile(b, {
    name: 'Quarterly plan',
    mimeType: GOOGLE_DOC,
    parents: [folder.id],
    ownerEmail: b.me.emailAddress,
    description: 'Plan for the next quarter: goals, owners and risks.',
    createdTime: iso(t(500)),
    modifiedTime: iso(t(3)),
    viewedByMeTime: iso(t(1)),
    modifiedByMeTime: iso(t(3)),
    exportBytes: 6000,
    editorSize: editorSize(6000),
    version: 187,
    properties: { department: 'finance', status: 'approved' },
    appProperties: { sandboxApp: 'true' },
  });
  const sheet = newFile(b, {
    name: 'Budget 2024',
    mimeType: GOOGLE_SHEET,
    parents: [folder.id],
    ownerEmail: b.me.emailAddress,
    createdTime: iso(t(420)),
    modifiedTime: iso(t(12)),
    starred: true,
    viewedByMeTime: iso(t(5)),
    exportBytes: 4800,
    editorSize: editorSize(4800),
    version: 96,
  });
  const slides = newFile(b, {
    name: 'Launch deck',
    mimeType: GOOGLE_SLIDES,
    parents: [folder.id],
    ownerEmail: b.me.emailAddress,
    createdTime: iso(t(200)),
    modifiedTime: iso(t(20)),
    exportBytes: 3200,
    editorSize: editorSize(3200),
    version: 54,
  });
  const drawing = newFile(b, {
    name: "Team's architecture diagram",
    mimeType: GOOGLE_DRAWING,
    parents: [nested.id],
    ownerEmail: b.me.emailAddress,
    createdTime: iso(t(600)),
    modifiedTime: iso(t(450)),
    exportBytes: 400,
    editorSize: editorSize(400),
    version: 12,
  });
  const largeDoc = newFile(b, {
    name: 'Complete meeting transcripts',
    mimeType: GOOGLE_DOC,
    parents: [b.root.id],
    ownerEmail: b.me.emailAddress,
    createdTime: iso(t(900)),
    modifiedTime: iso(t(8)),
    exportBytes: LARGE_DOC_EXPORT_BYTES,
    editorSize: editorSize(LARGE_DOC_EXPORT_BYTES),
    version: 4012,
  });
  const pdfKind = binaryKind('application/pdf') as BinaryKind;
  const binary = newFile(b, {
    name: 'Annual report 2024.pdf',
    mimeType: 'application/pdf',
    parents: [folder.id],
    ownerEmail: b.me.emailAddress,
    createdTime: iso(t(90)),
    modifiedTime: iso(t(10)),
    viewedByMeTime: iso(t(4)),
    originalFilename: 'annual-report-2024-final.pdf',
    version: 9,
  });
  binary.content = patternContent(binary.id, pdfKind, 1_234_567);
  const textFileContent = `Sandbox notes\n${Array.from({ length: 12 }, () => sentence(rng)).join('\n')}\n`;
  const text = newFile(b, {
    name: 'notes.txt',
    mimeType: 'text/plain',
    parents: [b.root.id],
    ownerEmail: b.me.emailAddress,
    createdTime: iso(t(40)),
    modifiedTime: iso(t(6)),
    originalFilename: 'notes.txt',
    version: 4,
  });
  text.content = { kind: 'bytes', bytes: Buffer.from(textFileContent, 'utf8') };
  const jpegKind = binaryKind('image/jpeg') as BinaryKind;
  const image = newFile(b, {
    name: 'team-photo.jpg',
    mimeType: 'image/jpeg',
    parents: [folder.id],
    ownerEmail: b.me.emailAddress,
    createdTime: iso(t(300)),
    modifiedTime: iso(t(300)),
    originalFilename: 'IMG_2041.JPG',
    imageMetadata: { width: 4032, height: 3024, rotation: 0, cameraMake: 'Google', cameraModel: 'Pixel 8', time: '2024:05:18 14:02:11' },
    version: 2,
  });
  image.content = patternContent(image.id, jpegKind, 345_678);
  const docxKind = binaryKind(DOCX) as BinaryKind;
  const trashed = newFile(b, {
    name: 'old-draft.docx',
    mimeType: DOCX,
    parents: [b.root.id],
    ownerEmail: b.me.emailAddress,
    createdTime: iso(t(800)),
    modifiedTime: iso(t(60)),
    trashed: true,
    explicitlyTrashed: true,
    trashingUserEmail: b.me.emailAddress,
    originalFilename: 'old-draft.docx',
    version: 7,
  });
  trashed.content = patternContent(trashed.id, docxKind, 48_213);
  const shortcut = newFile(b, {
    name: 'Shortcut to Annual report',
    mimeType: SHORTCUT,
    parents: [b.root.id],
    ownerEmail: b.me.emailAddress,
    createdTime: iso(t(9)),
    modifiedTime: iso(t(9)),
    shortcutTargetId: binary.id,
    version: 1,
  });
  const partner = newFile(b, {
    name: 'Partner agreement.pdf',
    mimeType: 'application/pdf',
    ownerEmail: colleague.emailAddress,
    lastModifyingUserEmail: colleague.emailAddress,
    sharingUserEmail: colleague.emailAddress,
    createdTime: iso(t(150)),
    modifiedTime: iso(t(14)),
    sharedWithMeTime: iso(t(14)),
    resourceKey: b.ids.resourceKey(),
    originalFilename: 'partner-agreement.pdf',
    version: 5,
  });
  partner.content = patternContent(partner.id, pdfKind, 87_654);

  const drive = b.drives[0] as SharedDriveRecord;
  const specs = newFile(b, { name: 'Specs', mimeType: FOLDER, parents: [drive.id], driveId: drive.id, createdTime: iso(t(350)), modifiedTime: iso(t(25)) });
  const designDoc = newFile(b, {
    name: 'Design doc',
    mimeType: GOOGLE_DOC,
    parents: [specs.id],
    driveId: drive.id,
    lastModifyingUserEmail: colleague.emailAddress,
    createdTime: iso(t(340)),
    modifiedTime: iso(t(25)),
    exportBytes: 9000,
    editorSize: editorSize(9000),
    version: 230,
  });
  const dataset = newFile(b, {
    name: 'dataset.csv',
    mimeType: 'text/csv',
    parents: [drive.id],
    driveId: drive.id,
    createdTime: iso(t(120)),
    modifiedTime: iso(t(18)),
    originalFilename: 'dataset.csv',
    version: 3,
  });
  dataset.content = { kind: 'bytes', bytes: Buffer.from(textFileBody(rng, 'text/csv', 40), 'utf8') };
  const obsolete = newFile(b, {
    name: 'obsolete.bin',
    mimeType: 'application/octet-stream',
    parents: [drive.id],
    driveId: drive.id,
    createdTime: iso(t(500)),
    modifiedTime: iso(t(100)),
    trashed: true,
    explicitlyTrashed: true,
    trashedTime: iso(t(45)),
    trashingUserEmail: b.me.emailAddress,
    version: 2,
  });
  obsolete.content = patternContent(obsolete.id, binaryKind('application/octet-stream') as BinaryKind, 70_000);

  for (const f of [folder, nested, doc, sheet, slides, drawing, largeDoc, binary, text, image, trashed, shortcut]) myDrivePermissions(b, f, rng, f === doc);
  // Shared with me read-only: I may read it but not list its permissions.
  addPermission(b, partner.id, userPermission(colleague, 'owner'));
  addPermission(b, partner.id, userPermission(b.me, 'reader'));
  for (const f of [specs, designDoc, dataset, obsolete]) inheritDrivePermissions(b, f);

  return {
    rootFolderId: b.root.id,
    folderId: folder.id,
    nestedFolderId: nested.id,
    docId: doc.id,
    sheetId: sheet.id,
    slidesId: slides.id,
    drawingId: drawing.id,
    largeDocId: largeDoc.id,
    binaryFileId: binary.id,
    textFileId: text.id,
    textFileContent,
    imageFileId: image.id,
    trashedFileId: trashed.id,
    starredFileId: sheet.id,
    shortcutId: shortcut.id,
    sharedWithMeFileId: partner.id,
    sharedDriveId: drive.id,
    sharedDriveFolderId: specs.id,
    sharedDriveFileId: dataset.id,
    sharedDriveDocId: designDoc.id,
    sharedDriveTrashedFileId: obsolete.id,
    commentedFileId: doc.id,
    revisionsFileId: binary.id,
    permissionsFileId: doc.id,
  };
}

import type { ReplicationContext, StoredRecord } from '../../core/sdk/index.ts';

/**
 * Fills the context store with every file the credentials can see, in My Drive and shared drives,
 * trashed ones included (the store says `trashed`); files gone from Drive leave the store. Drive's
 * `size` is an int64 string: stored as a number, so ranges compare numerically.
 */
export async function replicateFiles(context: ReplicationContext): Promise<void> {
  const files = context.list('files', 'list', {
    pageSize: 1000,
    corpora: 'allDrives',
    includeItemsFromAllDrives: true,
    supportsAllDrives: true,
  });
  await context.replaceAll('files', withNumericSize(files));
}

async function* withNumericSize(files: AsyncIterable<StoredRecord>): AsyncGenerator<StoredRecord> {
  for await (const file of files) yield typeof file.size === 'string' ? { ...file, size: Number(file.size) } : file;
}

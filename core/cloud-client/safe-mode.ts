import { InputError } from './errors.ts';

/** Safe mode deletes only what is named for deletion, so a slip cannot remove production resources. */
const DELETABLE = /delete-?me/i;

export function isNamedForDeletion(name: string): boolean {
  return DELETABLE.test(name);
}

/** Throws an InputError unless `name` contains `delete-me` or `deleteme` (any case). */
export function assertSafeToDelete(resourceType: string, id: string, name: string): void {
  if (!isNamedForDeletion(name)) {
    throw new InputError(
      `safe mode: the ${resourceType} ${id} (${JSON.stringify(name)}) is not deleted because its name contains neither "delete-me" nor "deleteme"; pass safeMode: false to delete it anyway`,
      'safeMode',
    );
  }
}

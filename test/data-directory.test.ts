/** preparePrivateDirectory narrows a directory to 0700 only when it is Plugboard's own (startup.test.ts covers a whole start). */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { preparePrivateDirectory } from '../core/security/data-directory.ts';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function existingDir(files: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'plugboard-datadir-'));
  roots.push(root);
  const dir = join(root, 'data');
  mkdirSync(dir);
  for (const file of files) writeFileSync(join(dir, file), '');
  chmodSync(dir, 0o755);
  return dir;
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('preparePrivateDirectory', () => {
  it('creates a missing directory, and its missing parents, 0700', () => {
    const root = mkdtempSync(join(tmpdir(), 'plugboard-datadir-'));
    roots.push(root);
    preparePrivateDirectory(join(root, 'a', 'data'));
    expect(mode(join(root, 'a', 'data'))).toBe('700');
  });

  it.each([[[]], [['plugboard.db', 'plugboard.db-wal', 'plugboard.db-shm', 'data-keys.json']], [['data-keys.json', 'data-keys.json.4242.0a1b2c3d']]])(
    'narrows an existing directory holding only its own files %o',
    (files) => {
      const dir = existingDir(files);
      preparePrivateDirectory(dir);
      expect(mode(dir)).toBe('700');
    },
  );

  it.each([[['plugboard.db', 'notes.txt']], [['.git']], [['plugboard.db.bak']], [['data-keys.json.old']]])(
    'leaves the mode of a directory holding something else alone %o',
    (files) => {
      const dir = existingDir(files);
      preparePrivateDirectory(dir);
      expect(mode(dir)).toBe('755');
    },
  );
});

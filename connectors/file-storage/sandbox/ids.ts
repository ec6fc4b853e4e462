import type { Random } from './prng.ts';

/**
 * Identifier shapes as Drive issues them, so clients that sniff ids (or log them) see realistic
 * values: 33-character file ids starting with "1", 19-character drive ids "0A…Uk9PVA", 20-digit
 * permission ids, opaque comment ids, numeric revision ids for Docs editor files.
 */

const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const DIGITS = '0123456789';

export class IdMint {
  private readonly used = new Set<string>();

  constructor(private readonly rng: Random) {}

  private unique(make: () => string): string {
    for (;;) {
      const id = make();
      if (!this.used.has(id)) {
        this.used.add(id);
        return id;
      }
    }
  }

  file(): string {
    return this.unique(() => `1${this.rng.chars(URL_SAFE, 32)}`);
  }

  /** Shared drives and the My Drive root share this shape. */
  drive(): string {
    return this.unique(() => `0A${this.rng.chars(ALNUM, 11)}Uk9PVA`);
  }

  userPermission(): string {
    return this.unique(() => `${this.rng.int(1, 9)}${this.rng.chars(DIGITS, 19)}`);
  }

  /** Group and domain permission ids carry a trailing "k". */
  groupPermission(): string {
    return this.unique(() => `${this.rng.int(1, 9)}${this.rng.chars(DIGITS, 19)}k`);
  }

  comment(): string {
    return this.unique(() => `AAAA${this.rng.chars(URL_SAFE, 11)}`);
  }

  /** Binary file revisions have long opaque ids. */
  binaryRevision(): string {
    return this.unique(() => `0B${this.rng.chars(ALNUM, 48)}`);
  }

  resourceKey(): string {
    return this.unique(() => `0-${this.rng.chars(URL_SAFE, 22)}`);
  }
}

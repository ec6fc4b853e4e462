import { createHash } from 'node:crypto';
import { Random } from './prng.ts';
import type { ContentSpec } from './types.ts';

/**
 * File bytes, generated on demand and never held whole. A pattern file is a magic header followed by
 * one 64 KiB pseudo-random block (derived from seed and file key) repeated to the file's size; so a
 * 1 GiB file costs one small block of memory and streaming it is just writing views of that block.
 */

/** Size of the per-file pseudo-random block. */
export const PATTERN_BLOCK = 64 * 1024;
/** Largest slice handed out at once; the cached window holds the block repeated to cover it. */
export const MAX_SLICE = 256 * 1024;
const WINDOW = MAX_SLICE + PATTERN_BLOCK;
/** Windows kept for recently read files (each WINDOW bytes). */
const WINDOW_CACHE = 8;

export interface ContentSource {
  readonly size: number;
  /** A view of the bytes from `offset`, at most `max` long; non-empty while offset < size. */
  slice(offset: number, max: number): Buffer;
}

class BytesSource implements ContentSource {
  constructor(private readonly bytes: Buffer) {}
  get size(): number {
    return this.bytes.length;
  }
  slice(offset: number, max: number): Buffer {
    return this.bytes.subarray(offset, Math.min(this.bytes.length, offset + max));
  }
}

class PatternSource implements ContentSource {
  constructor(
    readonly size: number,
    private readonly header: Buffer,
    private readonly window: Buffer,
  ) {}

  slice(offset: number, max: number): Buffer {
    const end = Math.min(this.size, offset + Math.min(max, MAX_SLICE));
    if (offset < this.header.length) return this.header.subarray(offset, Math.min(end, this.header.length));
    const at = (offset - this.header.length) % PATTERN_BLOCK;
    return this.window.subarray(at, at + (end - offset));
  }
}

export function bufferSource(bytes: Buffer): ContentSource {
  return new BytesSource(bytes);
}

export class ContentLibrary {
  /** Most recently used last; Map keeps insertion order. */
  private readonly windows = new Map<string, Buffer>();

  constructor(private readonly seed: number) {}

  source(spec: ContentSpec): ContentSource {
    if (spec.kind === 'bytes') return new BytesSource(spec.bytes);
    return new PatternSource(spec.size, spec.header, this.window(spec.key));
  }

  private window(key: string): Buffer {
    const cached = this.windows.get(key);
    if (cached) {
      this.windows.delete(key);
      this.windows.set(key, cached);
      return cached;
    }
    const block = Random.derive(this.seed, `content:${key}`).fill(Buffer.allocUnsafe(PATTERN_BLOCK));
    const window = Buffer.allocUnsafe(WINDOW);
    for (let at = 0; at < WINDOW; at += PATTERN_BLOCK) block.copy(window, at, 0, Math.min(PATTERN_BLOCK, WINDOW - at));
    this.windows.set(key, window);
    if (this.windows.size > WINDOW_CACHE) {
      const oldest = this.windows.keys().next().value;
      if (oldest !== undefined) this.windows.delete(oldest);
    }
    return window;
  }
}

/** Bytes [start, endExclusive) copied into one buffer (tests and small bodies only). */
export function readRange(source: ContentSource, start: number, endExclusive: number): Buffer {
  const end = Math.min(endExclusive, source.size);
  if (start >= end) return Buffer.alloc(0);
  const out = Buffer.allocUnsafe(end - start);
  let at = start;
  while (at < end) {
    const part = source.slice(at, end - at);
    part.copy(out, at - start);
    at += part.length;
  }
  return out;
}

export interface Digests {
  md5: string;
  sha1: string;
  sha256: string;
}

/** The three checksums Drive reports for binary content, in one pass. */
export function digestsOf(source: ContentSource): Digests {
  const md5 = createHash('md5');
  const sha1 = createHash('sha1');
  const sha256 = createHash('sha256');
  for (let at = 0; at < source.size; ) {
    const part = source.slice(at, MAX_SLICE);
    md5.update(part);
    sha1.update(part);
    sha256.update(part);
    at += part.length;
  }
  return { md5: md5.digest('hex'), sha1: sha1.digest('hex'), sha256: sha256.digest('hex') };
}

/** Byte string (each char code 0-255) to Buffer, for magic headers written as JS strings. */
export function latin1(text: string): Buffer {
  return Buffer.from(text, 'latin1');
}

/**
 * Seeded pseudo-random numbers (sfc32, seeded through splitmix32). Everything the sandbox generates
 * derives from (seed, purpose) so that the same options give byte-identical data on every machine,
 * and adding one more file does not reshuffle the others (each purpose has its own stream).
 */

/** 32-bit FNV-1a over a string, folded with a numeric seed: a cheap, stable hash for stream keys. */
export function hash32(seed: number, text: string): number {
  let h = (0x811c9dc5 ^ (seed >>> 0)) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** splitmix32 step: spreads a weak seed (1, 2, 3...) into well-mixed state words. */
function splitmix32(state: number): [next: number, out: number] {
  const next = (state + 0x9e3779b9) >>> 0;
  let z = next;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return [next, (z ^ (z >>> 16)) >>> 0];
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const words: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [next, out] = splitmix32(s);
      s = next;
      words.push(out);
    }
    [this.a, this.b, this.c, this.d] = words as [number, number, number, number];
    // sfc32 needs a few rounds before its output is well distributed.
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** An independent stream for one purpose ("files", "comments:<id>", ...). */
  static for(seed: number, purpose: string): Random {
    return new Random(hash32(seed, purpose));
  }

  uint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Weighted choice; weights need not sum to 1. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (!last) throw new RangeError('weighted pick from an empty list');
    return last[0];
  }

  /** `count` distinct items, in random order (clamped to the list length). */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = items.slice();
    const n = Math.min(count, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      const tmp = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = tmp;
    }
    return copy.slice(0, n);
  }

  chars(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  /** Fills a buffer with random bytes (used for per-file content pattern blocks). */
  fill(buffer: Buffer): Buffer {
    let i = 0;
    for (; i + 4 <= buffer.length; i += 4) buffer.writeUInt32LE(this.uint32(), i);
    for (; i < buffer.length; i++) buffer[i] = this.uint32() & 0xff;
    return buffer;
  }
}

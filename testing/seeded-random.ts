import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

/**
 * Seeded randomness for sandboxes: the same seed gives the same data on every run and machine.
 * `derive` gives each purpose its own stream, so generating one more user does not reshuffle the
 * channels. The generator is pure-rand's xoroshiro128+; this class only adds the draws sandboxes use.
 */
export class SeededRandom {
  private constructor(private readonly generator: RandomGenerator) {}

  static derive(seed: number, purpose: string): SeededRandom {
    // FNV-1a over the purpose, folded with the seed: a stable 32-bit key per stream.
    let hash = (0x811c9dc5 ^ (seed >>> 0)) >>> 0;
    for (let i = 0; i < purpose.length; i++) hash = Math.imul(hash ^ purpose.charCodeAt(i), 0x01000193) >>> 0;
    return new SeededRandom(xoroshiro128plus(hash | 0));
  }

  /** Uniform in [0, 1). */
  next(): number {
    return uniformFloat64(this.generator);
  }

  uint32(): number {
    return this.generator.next() >>> 0;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return uniformInt(this.generator, min, max);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[this.int(0, items.length - 1)] as T;
  }

  /** Weighted choice; weights need not sum to 1. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    if (entries.length === 0) throw new RangeError('weighted pick from an empty list');
    let roll = this.next() * entries.reduce((sum, [, weight]) => sum + weight, 0);
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1]![0];
  }

  /** `count` distinct items in random order (clamped to the list length). */
  sample<T>(items: readonly T[], count: number): T[] {
    const n = Math.min(count, items.length);
    if (n * 3 <= items.length) {
      // Few from many (e.g. 3 of 5000 users): draw indexes instead of shuffling a copy.
      const seen = new Set<number>();
      while (seen.size < n) seen.add(this.int(0, items.length - 1));
      return [...seen].map((i) => items[i] as T);
    }
    const copy = items.slice();
    for (let i = 0; i < n; i++) {
      const j = this.int(i, copy.length - 1);
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, n);
  }

  chars(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.int(0, alphabet.length - 1)];
    return out;
  }

  hex(length: number): string {
    return this.chars('0123456789abcdef', length);
  }

  /** Fills a buffer with random bytes (a file's content pattern, say). */
  fill(buffer: Buffer): Buffer {
    let i = 0;
    for (; i + 4 <= buffer.length; i += 4) buffer.writeUInt32LE(this.uint32(), i);
    for (; i < buffer.length; i++) buffer[i] = this.uint32() & 0xff;
    return buffer;
  }

  /** A version-4 UUID, upper case as Slack writes client message ids. */
  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${this.pick(['8', '9', 'a', 'b'])}${h.slice(17, 20)}-${h.slice(20, 32)}`.toUpperCase();
  }
}

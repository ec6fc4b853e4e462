/** Small seeded PRNG (mulberry32): data must be identical for the same seed across runs and machines. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Independent stream per purpose, so e.g. the channel count does not reshuffle the users. */
  static derive(seed: number, purpose: string): Rng {
    let h = 2166136261 ^ (seed >>> 0);
    for (let i = 0; i < purpose.length; i++) {
      h = Math.imul(h ^ purpose.charCodeAt(i), 16777619);
    }
    return new Rng(h >>> 0);
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** `k` distinct items in random order (k is clamped to the list length). */
  sample<T>(items: readonly T[], k: number): T[] {
    const n = Math.min(k, items.length);
    if (n * 3 > items.length) {
      const copy = items.slice();
      for (let i = 0; i < n; i++) {
        const j = i + Math.floor(this.next() * (copy.length - i));
        const tmp = copy[i] as T;
        copy[i] = copy[j] as T;
        copy[j] = tmp;
      }
      return copy.slice(0, n);
    }
    // Sparse draw: avoids copying a large list (e.g. 5000 users) for a small sample.
    const seen = new Set<number>();
    const out: T[] = [];
    while (out.length < n) {
      const i = Math.floor(this.next() * items.length);
      if (seen.has(i)) continue;
      seen.add(i);
      out.push(items[i] as T);
    }
    return out;
  }

  chars(alphabet: string, length: number): string {
    let s = '';
    for (let i = 0; i < length; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }

  hex(length: number): string {
    return this.chars('0123456789abcdef', length);
  }

  uuid(): string {
    const h = this.hex(32);
    const variant = '89ab'[Math.floor(this.next() * 4)];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`.toUpperCase();
  }
}

/** Alphabet of Slack object ids (upper-case base36). */
export const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Issues unique Slack-style ids (`U0…`, `C0…`) from a stream; ids of different kinds never clash. */
export class IdFactory {
  private readonly used = new Set<string>();

  constructor(private readonly rng: Rng) {}

  next(prefix: string): string {
    for (;;) {
      const id = `${prefix}0${this.rng.chars(ID_ALPHABET, 9)}`;
      if (!this.used.has(id)) {
        this.used.add(id);
        return id;
      }
    }
  }

  reserve(id: string): void {
    this.used.add(id);
  }
}

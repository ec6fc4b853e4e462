import { SeededRandom } from '../../../testing/index.ts';

/** The sandbox's seeded randomness (SDK's SeededRandom), named as the seed code uses it. */
export { SeededRandom as Rng };
type Rng = SeededRandom;

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

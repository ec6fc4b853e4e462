/** The sandbox's seeded randomness: the SDK's SeededRandom, one stream per purpose. */
export { SeededRandom as Random } from '../../../testing/index.ts';

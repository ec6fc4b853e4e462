import type { StreamState } from './read-stream.ts';

/** Between two saves of a stream's state: a save is a durable commit, and a stream may reach a new state per parent record (thousands of channels). */
const SAVE_EVERY_MS = 1000;

/**
 * A stream's state as its reading reaches it, saved at most once a second (the first at once) and
 * when the stream ends. Each state vouches for what was written before it; a crash loses at most a
 * second of progress, which the next attempt reads again and deduplicates.
 */
export class StateCheckpoints {
  private pending: StreamState | undefined;
  private savedAt = 0;

  constructor(private readonly write: (state: StreamState) => Promise<void>) {}

  /** Records the state reached (everything before it is written) and saves it when a second has passed. */
  async reached(state: StreamState): Promise<void> {
    this.pending = state;
    if (Date.now() - this.savedAt >= SAVE_EVERY_MS) await this.save();
  }

  /** Saves the last state reached, if not saved yet. */
  async save(): Promise<void> {
    const state = this.pending;
    if (state === undefined) return;
    this.pending = undefined;
    await this.write(state);
    this.savedAt = Date.now();
  }
}

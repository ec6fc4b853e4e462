import { LimitExceededError } from './errors.ts';

export interface InterpolationLimits {
  /** Evaluation steps (nodes, loop turns, items a filter touches) one interpolation may take. */
  maxSteps?: number;
  /** Wall-clock time one interpolation may take, in milliseconds. */
  maxMilliseconds?: number;
  /** Length of the rendered text and of any string or list built on the way, in characters or items. */
  maxOutputLength?: number;
}

export const DEFAULT_LIMITS: Required<InterpolationLimits> = {
  maxSteps: 1_000_000,
  maxMilliseconds: 1_000,
  maxOutputLength: 1024 * 1024,
};

/** Nesting of data a template may print or compare (a cyclic context object stops here). */
const MAX_DEPTH = 200;

/**
 * The budget of one interpolation. Every evaluation step ticks it; the clock is read every 1024
 * steps, so a template stops within about a millisecond of its deadline. Sizes are checked before a
 * string or list is built, so `'x' * 10**9` fails without allocating.
 */
export class Budget {
  private steps = 0;
  private readonly deadline: number;
  readonly limits: Required<InterpolationLimits>;

  constructor(limits: InterpolationLimits = {}) {
    // Picked rather than spread: `limits` is often a whole options object, and spreading it costs more than a small template's evaluation.
    this.limits = {
      maxSteps: limits.maxSteps ?? DEFAULT_LIMITS.maxSteps,
      maxMilliseconds: limits.maxMilliseconds ?? DEFAULT_LIMITS.maxMilliseconds,
      maxOutputLength: limits.maxOutputLength ?? DEFAULT_LIMITS.maxOutputLength,
    };
    this.deadline = performance.now() + this.limits.maxMilliseconds;
  }

  tick(count = 1): void {
    const before = this.steps;
    this.steps += count;
    if (this.steps > this.limits.maxSteps) {
      throw new LimitExceededError(`the template took more than ${this.limits.maxSteps} evaluation steps`);
    }
    if (before >>> 10 !== this.steps >>> 10 && performance.now() > this.deadline) {
      throw new LimitExceededError(`the template took longer than ${this.limits.maxMilliseconds} ms`);
    }
  }

  /** A string or list of `length` is about to be built. */
  checkSize(length: number): void {
    if (length > this.limits.maxOutputLength) {
      throw new LimitExceededError(`the template would build a value longer than ${this.limits.maxOutputLength} characters or items`);
    }
  }

  checkDepth(depth: number): void {
    if (depth > MAX_DEPTH) throw new LimitExceededError(`the data is nested more than ${MAX_DEPTH} levels deep`);
  }
}

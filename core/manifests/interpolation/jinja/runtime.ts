import type { Budget } from '../budget.ts';
import type { PyDateTime } from '../datetime/types.ts';

/** What the methods, filters and macros of one interpolation share: its budget and its clock. */
export interface Runtime {
  readonly budget: Budget;
  /** The current time (UTC), fixed for the whole interpolation. */
  readonly now: PyDateTime;
}

import { afterAll } from 'vitest';
import { flushSkippedValidations } from './skipped-validations.ts';

// Runs in every test file: its skipped spec validations join the run's count.
afterAll(flushSkippedValidations);

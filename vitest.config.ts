import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Unit tests of core's pure modules sit beside them; everything that runs a connector or a server is in test/.
    include: ['test/**/*.test.ts', 'core/**/*.test.ts'],
    // Test files share nothing (each starts its own servers, sandboxes and database schema) and mostly
    // wait on sockets: three at a time on a 2-core machine, where vitest's default (cores - 1) runs one
    // (measured on it: `npm test` 545 s with two, 468 s with three).
    maxWorkers: 3,
    // Files share a worker's loaded modules instead of each importing the whole app again (they share
    // no state: each makes its own runtime, servers and schema). Measured on a 2-core machine: `npm
    // test` 733 s isolated, 520 s and, files shuffled, 559 s shared; importing went from 359 s to 77.
    isolate: false,
    // Hang detectors, not speed checks: on a slow 2-core machine running three files at once, a file's
    // server start (the official API document compiled) took over 20 s and a restarted server 40.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['test/helpers/destination-database.setup.ts', 'test/helpers/skipped-validations.setup.ts'],
    setupFiles: ['test/helpers/skipped-validations.after-file.ts'],
  },
});

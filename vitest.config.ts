import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Unit tests of core's pure modules sit beside them; everything that runs a connector or a server is in test/.
    include: ['test/**/*.test.ts', 'core/**/*.test.ts'],
    // Test files share nothing (each starts its own servers, sandboxes and database schema) and mostly
    // wait on sockets: three at a time on a 2-core machine, where vitest's default (cores - 1) runs one
    // (measured on it: `npm test` 545 s with two, 468 s with three).
    maxWorkers: 3,
    testTimeout: 20_000,
    hookTimeout: 20_000,
    globalSetup: ['test/helpers/destination-database.setup.ts', 'test/helpers/skipped-validations.setup.ts'],
    setupFiles: ['test/helpers/skipped-validations.after-file.ts'],
  },
});

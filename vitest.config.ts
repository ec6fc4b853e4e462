import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Unit tests of core's pure modules sit beside them; everything that runs a connector or a server is in test/.
    include: ['test/**/*.test.ts', 'core/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    globalSetup: ['test/helpers/destination-database.setup.ts', 'test/helpers/skipped-validations.setup.ts'],
    setupFiles: ['test/helpers/skipped-validations.after-file.ts'],
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores here: run files in parallel processes, tests within a file in order.
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
    globalSetup: ['./test/support/corpus-readonly.ts'],
  },
});

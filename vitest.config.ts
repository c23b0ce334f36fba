import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Every API response a test receives is checked against the OpenAPI document (tests/helpers/conform.ts).
    setupFiles: ['tests/helpers/setup-conform.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Integration tests start servers on loopback ports; run files one at a time on 2-core machines.
    fileParallelism: false,
    // CI counts results from a JSON report (see .ci/run); the console keeps the default reporter.
    reporters: process.env.LPA_VITEST_JSON ? ['default', ['json', { outputFile: process.env.LPA_VITEST_JSON }]] : ['default'],
  },
});

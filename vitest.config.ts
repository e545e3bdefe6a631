import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Every test's temporary files in one folder, checked for leftovers at the end (test/support/temp-root.ts).
    globalSetup: ['test/support/temp-root.ts'],
    maxWorkers: 2,
    // Tests never read or fill the user's corpus cache; the cache's own tests use folders of their own.
    env: { NDD_BENCH_CACHE_DIR: 'off' },
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'engine/src/**/*.test.ts',
      'server/src/**/*.test.ts',
      'web/src/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
      'schemas/**/*.test.ts',
      'eslint-rules/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', 'web/e2e/**'],
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
    // A worker imports the server once and runs many files on it, instead of importing it again for
    // each file (the imports were most of the suite's time). What modules provide when mounted is
    // per platform (server/src/http/mounted.ts); vitest.setup.ts restores the environment a file set.
    isolate: false,
    setupFiles: ['./vitest.setup.ts'],
  },
});

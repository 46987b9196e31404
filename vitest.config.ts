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
  },
});

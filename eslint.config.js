import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import moduleBoundaries from './eslint-rules/module-boundaries.js';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'bench-data/**',
      'test-artifacts/**',
      'schemas/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        window: 'readonly',
        document: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // One clock (issue 14): outside the clock modules nothing reads the wall clock, so a suite means
  // the same on any day. Durations may use `performance.now()` (monotonic, never a date).
  {
    files: ['server/**/*.{ts,tsx}', 'engine/**/*.{ts,tsx}', 'web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='Date'][property.name='now']",
          message:
            'Read the time from the clock (server: deps.clock.now(); engine: a `now` parameter; web: web/src/clock.ts).',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message:
            'Read the time from the clock (server: deps.clock.now(); engine: a `now` parameter; web: web/src/clock.ts).',
        },
        {
          selector: "CallExpression[callee.name='Date']",
          message: 'Date() reads the wall clock: read the time from the clock.',
        },
      ],
    },
  },
  // The declared readers of the wall clock.
  {
    files: [
      // The server's clock: systemClock is the one production reader; tests hand in their own.
      'server/src/clock.ts',
      // The browser's clock: the app's "now" (dates shown, session expiry, "today" defaults) and its UI timers.
      'web/src/clock.ts',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  // Module boundaries (issue 14): a server module is imported through its index.ts only, server code
  // never imports scripts/, and modules do not import each other in a cycle (no exceptions).
  {
    files: ['server/src/**/*.ts'],
    plugins: { pv: moduleBoundaries },
    rules: { 'pv/module-boundaries': ['error', { root: 'server/src' }] },
  },
  // The engine is one package with one surface (issue 14): imported as @pv/engine, never by path.
  {
    files: ['server/**/*.ts', 'web/src/**/*.{ts,tsx}', 'web/e2e/**/*.ts', 'scripts/**/*.{ts,mts}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)engine/src(/|$)',
              message: 'Import the engine by its package name, @pv/engine (its index.ts is its one surface).',
            },
          ],
        },
      ],
    },
  },
);

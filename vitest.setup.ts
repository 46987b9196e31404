/**
 * Runs before every test file. The workers share modules between files (vitest.config.ts:
 * isolate false), so what a file changes in the process must not reach the next: the environment
 * it set (identity switches such as PV_LOGIN_CAPTCHA) is restored when the file ends.
 */
import { afterAll } from 'vitest';

const environment = { ...process.env };

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in environment)) delete process.env[key];
  Object.assign(process.env, environment);
});

import assert from 'node:assert/strict';
import { test } from './kit';

test('a deep link is answered by the app shell (history routing) and / goes to /login', async ({
  page,
  baseUrl,
}) => {
  const response = await page.goto(`${baseUrl}/cases/some/deep/link`);
  assert.equal(response?.status(), 200);
  await page.getByTestId('not-found').waitFor();
  await page.goto(`${baseUrl}/`);
  await page.getByTestId('login-form').waitFor();
  assert.equal(new URL(page.url()).pathname, '/login');
});

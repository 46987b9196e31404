import assert from 'node:assert/strict';
import { test } from './kit';

test('the built app shows the server health', async ({ page, baseUrl, screenshot }) => {
  const response = await page.goto(`${baseUrl}/`);
  assert.equal(response?.status(), 200);
  await page.getByTestId('health-backend').waitFor();
  assert.equal(await page.getByTestId('health-status').textContent(), 'ok');
  assert.equal(await page.getByTestId('health-backend').textContent(), 'embedded');

  // The version shown is the one the API reports, not something baked into the page.
  const api = (await (await fetch(`${baseUrl}/health`)).json()) as { data: { version: string } };
  assert.equal(await page.getByTestId('health-version').textContent(), api.data.version);
  await screenshot('health');
});

test('a deep link is answered by the app shell (history routing)', async ({ page, baseUrl }) => {
  const response = await page.goto(`${baseUrl}/cases/some/deep/link`);
  assert.equal(response?.status(), 200);
  await page.getByTestId('health-card').waitFor();
});

import assert from 'node:assert/strict';
import { test } from './kit';
import { demoPassword, login, skipTour } from './helpers';

test('an expired session shows the alert within 2 s and clears local storage', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await page.goto(`${baseUrl}/authoritymanagement/organization`);
  await page.getByTestId('list-authoritymanagement.organization').waitFor();
  // A session policy of a few milliseconds: the next 2 s check finds it expired.
  await page.evaluate(() => {
    localStorage.setItem('pv.sessionMinutes', '0.0001');
    localStorage.setItem('pv.expiresAt', String(Date.now() - 1000));
  });
  await page.getByTestId('prompt-dialog').waitFor({ timeout: 4000 });
  assert.equal(await page.evaluate(() => localStorage.getItem('pv.token')), null);
  await screenshot('session-expired');
  await page.getByTestId('prompt-relogin').click();
  await page.waitForURL((url) => url.pathname === '/login');
});

test('logged in elsewhere (400002): re-login or stay', async ({
  browser,
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  const password = demoPassword(serverOutput, 'entry');
  await login(page, baseUrl, 'entry', password);
  await skipTour(page);
  // The same account logs in on another browser: this one's session is replaced.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await login(otherPage, baseUrl, 'entry', password);
  await other.close();

  await page.getByTestId('personal-menu').click();
  await page.getByTestId('personal-change-password').click();
  await page.getByTestId('password-old').fill('x');
  await page.getByTestId('password-new').fill('Abcdef#12345');
  await page.getByTestId('password-confirm').fill('Abcdef#12345');
  await page.getByTestId('password-submit').click();
  await page.getByTestId('prompt-dialog').waitFor();
  assert.match((await page.getByTestId('prompt-dialog').textContent()) ?? '', /别处|elsewhere/i);
  await screenshot('logged-in-elsewhere');
  await page.getByTestId('prompt-stay').click();
  assert.equal(new URL(page.url()).pathname, '/personal/changePassword');
  await page.getByTestId('password-submit').click();
  await page.getByTestId('prompt-relogin').click();
  await page.waitForURL((url) => url.pathname === '/login');
});

test('an invalid session (400001): the token is removed and re-login goes back to the root', async ({
  page,
  baseUrl,
  serverOutput,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  await page.evaluate(() => localStorage.setItem('pv.token', 'not-a-real-token'));
  await page.getByTestId('personal-menu').click();
  await page.getByTestId('personal-signature').click();
  await page.getByTestId('prompt-dialog').waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('pv.token')), null);
  await page.getByTestId('prompt-relogin').click();
  await page.waitForURL((url) => url.pathname === '/login');
});

test('another account signing in in another tab offers a refresh', async ({
  page,
  baseUrl,
  serverOutput,
}) => {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
  const second = await page.context().newPage();
  await login(second, baseUrl, 'qc', demoPassword(serverOutput, 'qc'));
  await page.getByTestId('prompt-dialog').waitFor();
  assert.match((await page.getByTestId('prompt-dialog').textContent()) ?? '', /刷新/);
  await Promise.all([page.waitForEvent('load'), page.getByTestId('prompt-refresh').click()]);
  await second.close();
});

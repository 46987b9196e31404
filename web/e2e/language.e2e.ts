import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { demoPassword, login, missingKeys, rawKeysOnScreen, skipTour } from './helpers';

async function choose(page: Page, language: 'zh' | 'en' | 'both') {
  await page.getByTestId('language-switch').first().click();
  await page.getByTestId(`language-${language}`).click();
}

test('language switch: Chinese by default, English, and bilingual with both labels', async ({
  page,
  baseUrl,
  screenshot,
}) => {
  await page.goto(`${baseUrl}/login`);
  const title = page.locator('h1');
  assert.equal(await title.textContent(), '药物警戒平台');
  await choose(page, 'en');
  assert.equal(await title.textContent(), 'Pharmacovigilance platform');
  assert.equal(await page.getByTestId('login-submit').textContent(), 'Log in');
  await choose(page, 'both');
  assert.equal(await title.textContent(), '药物警戒平台 / Pharmacovigilance platform');
  assert.equal(await page.getByTestId('login-submit').textContent(), '登录 / Log in');
  await screenshot('login-bilingual');
  // The choice survives a reload.
  await page.reload();
  assert.equal(await page.locator('h1').textContent(), '药物警戒平台 / Pharmacovigilance platform');
});

for (const language of ['zh', 'en'] as const) {
  test(`every screen shows catalogue text only in ${language} (no raw key, no missing string)`, async ({
    page,
    baseUrl,
    serverOutput,
  }) => {
    await page.goto(`${baseUrl}/login`);
    await page.evaluate((lang) => localStorage.setItem('pv.language', lang), language);
    const check = async (what: string) => {
      assert.deepEqual(await rawKeysOnScreen(page), [], `${language} ${what}`);
      assert.deepEqual(await missingKeys(page), [], `${language} ${what}`);
      if (language === 'en') {
        const han = (await page.evaluate(() => document.body.innerText)).match(/[\u4e00-\u9fff]+/g) ?? [];
        // Chinese in English mode may only come from data (the demo tenant's, users', roles' and receivers' names).
        const fromData =
          /演示|审评中心|企业管理员|录入员|编码员|质控|医学|申办方|递交|质疑|揭盲|盲底|报告处理|研究者|审核|主笔|撰写|审阅|批准|中文|平台运营/;
        assert.deepEqual(
          han.filter((w) => !fromData.test(w)),
          [],
          `${language} ${what}`,
        );
      }
    };
    for (const [path, ready] of [
      ['/login', 'login-form'],
      ['/tenantRegistration', 'registration'],
      ['/invalid', 'invalid-link'],
    ] as const) {
      await page.goto(`${baseUrl}${path}`);
      await page.getByTestId(ready).waitFor();
      await check(path);
    }
    await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
    await skipTour(page);
    for (const [path, ready] of [
      ['/authoritymanagement/organization', 'list-row'],
      ['/authoritymanagement/userAccountManagement', 'list-row'],
      ['/personal/changePassword', 'password-form'],
      // Another test may have stored a signature for this account: either state is a loaded page.
      ['/personal/signature', 'signature-none,signature-current'],
      ['/versionUpdate', 'health-version'],
      ['/no/such/page', 'not-found'],
      ['/home/personalhome', 'workbench'],
      ['/home/casetodo', 'feed-page-todo'],
      ['/home/preduealerts', 'feed-page-predue'],
      ['/home/downloadstasks', 'downloads-table'],
      ['/authoritymanagement/companyInfo', 'record-authoritymanagement.companyInfo'],
      ['/authoritymanagement/sysTenantConfig', 'record-authoritymanagement.sysTenantConfig.security'],
      ['/checklog/loginOperationLog', 'list-row'],
    ] as const) {
      await page.goto(`${baseUrl}${path}`);
      const readySelector = ready
        .split(',')
        .map((id) => `[data-testid="${id}"]`)
        .join(',');
      await page.locator(readySelector).first().waitFor();
      await check(path);
    }
    await page.goto(`${baseUrl}/authoritymanagement/organization`);
    await page.getByTestId('list-columns').click();
    await page.getByTestId('column-settings').waitFor();
    await check('column dialog');
    await page.goto(`${baseUrl}/authoritymanagement/organization`);
    await page.getByTestId('list-create').click();
    await page.getByTestId('form-dialog').locator('#root_name').waitFor();
    await page.getByTestId('form-save').click();
    await check('form with errors');
    await page.goto(`${baseUrl}/authoritymanagement/userAccountManagement`);
    await page.getByTestId('page-tab-authoritymanagement.roles').click();
    await page.getByTestId('list-create').click();
    await page.getByTestId('permission-tree').getByTestId('perm-home').waitFor();
    await check('role form with the permission tree');
    await page.getByTestId('form-close').click();
    await page.getByTestId('form-dialog').waitFor({ state: 'detached' });

    await page.getByTestId('personal-menu').click();
    await page.getByTestId('personal-logout').click();
    await page.waitForURL((url) => url.pathname === '/login');
    await login(page, baseUrl, 'operator', demoPassword(serverOutput, 'operator'));
    await skipTour(page);
    for (const [path, ready] of [
      ['/holoxcontrol/lessee', 'list-row'],
      ['/holoxcontrol/roleConfig', 'list-row'],
      ['/holoxcontrol/userRole', 'list-row'],
      ['/holoxcontrol/userJurisdiction', 'list-row'],
    ] as const) {
      await page.goto(`${baseUrl}${path}`);
      await page.getByTestId(ready).first().waitFor();
      await check(path);
    }
    await page.goto(`${baseUrl}/holoxcontrol/lessee`);
    await page.getByTestId('page-tab-holoxcontrol.lessee.defaults').click();
    await page.getByTestId('record-holoxcontrol.lessee.defaults').waitFor();
    await check('defaults of new tenants');
  });
}

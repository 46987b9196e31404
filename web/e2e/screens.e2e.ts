/**
 * The screenshot check (issue 16 item 5): every built page the menus offer, as the first demo
 * user whose duties reach it, in Chinese, English and bilingual display at 1280x800 and
 * 1920x1080, must show no overlapping text, no internal id, no raw true/false/null cell and no
 * horizontal scrollbar outside a table (screen-check.ts). The same walk proves that every
 * signed-in page loads under the Content-Security-Policy (policy-watch.ts; issue 13): menu pages
 * no demo user's menus reach are visited as the administrator (tenant and personal pages) or the
 * operator. The screenshots are kept under test-artifacts/e2e/screens/ (gitignored). One login per
 * user, reused through its storage state; the three languages walk side by side.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { test } from './kit';
import { apiCall, declaredMenuPaths, demoPassword, login, skipTour } from './helpers';
import { checkScreen, unexplained } from './screen-check';
import type { Allowance, Finding } from './screen-check';
import { assertNoInlineScript, assertStrictDocument, watchPolicy } from './policy-watch';

const SHOTS = join(fileURLToPath(new URL('../..', import.meta.url)), 'test-artifacts', 'e2e', 'screens');
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
const LANGUAGES = ['zh', 'en', 'both'] as const;

/**
 * The demo accounts, duty users first (their workbench and lists hold cases), the administrators
 * last. Not `processer`: the tour test (login.e2e.ts) needs that account's first login.
 */
const ACCOUNTS = [
  'entry',
  'qc',
  'medical',
  'coder',
  'submitter',
  'sponsor',
  'queries',
  'unblindapply',
  'unblindapprove',
  'blindowner',
  'pi',
  'dm',
  'mm',
  'dsurlead',
  'dsurwriter',
  'dsurqc',
  'dsurreviewer',
  'dsurapprover',
  'demoadmin',
  'operator',
];

/**
 * Findings the check lets pass for now. Each is a finding to close (say why and who closes it).
 */
const ALLOWED: Allowance[] = [];

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;
interface Visit {
  account: string;
  state: StorageState;
  paths: string[];
  /** The languages this visit walks in (all when absent). */
  languages?: readonly (typeof LANGUAGES)[number][];
}
/** Filled by the first test: who visits which pages. */
const plan: Visit[] = [];

interface MenuNode {
  type: string;
  path: string;
  children: MenuNode[];
}

/**
 * The pages the signed-in user's menus offer: each top menu's second-level menus, or the top menu's
 * own page. Read from the menu tree the shell renders its menus from (the session info the login
 * stored), not by clicking through every menu (which took most of the discovery's time).
 */
async function menuPaths(page: Page): Promise<string[]> {
  const menus = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('pv.sessionInfo') ?? '{}') as { menus?: MenuNode[] }).menus ?? [],
  );
  const paths: string[] = [];
  for (const top of menus) {
    const second = top.children.filter((child) => child.type === 'menu' && child.path);
    if (second.length) paths.push(...second.map((child) => child.path));
    else if (top.path) paths.push(top.path);
  }
  return [...new Set(paths)];
}

/**
 * Counts the page's requests in flight, so that settling waits for exactly its own reads rather
 * than for a fixed quiet time after the last one (networkidle waits 500 ms on every page).
 */
function inFlight(page: Page): () => number {
  let open = 0;
  page.on('request', () => (open += 1));
  page.on('requestfinished', () => (open -= 1));
  page.on('requestfailed', () => (open -= 1));
  return () => open;
}

/** Waits until the page has read its data: no request open for a moment, no spinner. */
async function settle(page: Page, open: () => number): Promise<void> {
  const until = Date.now() + 8000;
  let quietSince = 0;
  while (Date.now() < until) {
    const spinning = await page.locator('.fui-Spinner').count();
    if (open() > 0 || spinning > 0) quietSince = 0;
    else if (!quietSince) quietSince = Date.now();
    else if (Date.now() - quietSince >= 150) return;
    await page.waitForTimeout(50);
  }
}

/**
 * Waits until the page has laid itself out for a new viewport: three animation frames (a resize
 * observer fires after the first frame's layout, React renders its state change before the next
 * frame, and a second observer round settles by the third), not a fixed 60 ms per shot.
 */
async function relaidOut(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let frame = 0; frame < 3; frame++) await new Promise((done) => requestAnimationFrame(done));
  });
}

test('the screen check fails on a planted overlapping label and a planted id in a list (fixture page)', async ({
  page,
}) => {
  const fixture = (planted: string) => `<!doctype html><html><body style="margin:0;font:14px sans-serif">
      <div style="position:relative;width:600px">
        <label>Report type</label>
        ${planted.includes('overlap') ? '<span style="position:absolute;left:20px;top:2px">Date range</span>' : ''}
      </div>
      <table><tbody>
        <tr><td>XY-101-301</td><td>${planted.includes('id') ? 'd2f8bf7f-e370-4487-a04e-28ded8ba497a' : 'Study site 1'}</td></tr>
        <tr><td>${planted.includes('raw') ? 'true · 1 · XY-101' : 'Yes · 1 · XY-101'}</td><td>2026-11-20</td></tr>
      </tbody></table></body></html>`;
  await page.setContent(fixture(''));
  assert.deepEqual(await checkScreen(page), [], 'the clean fixture passes');
  await page.setContent(fixture('overlap id raw'));
  const kinds = (await checkScreen(page)).map((f) => f.kind).sort();
  assert.deepEqual(kinds, ['internal-id', 'overlap', 'raw-cell']);
  await page.setContent(`<div style="width:3000px">wide</div>`);
  assert.deepEqual(
    (await checkScreen(page)).map((f) => f.kind),
    ['page-scroll'],
  );
});

test(
  'every built page is assigned to a demo user whose menus reach it',
  async ({ browser, baseUrl, serverOutput }) => {
    /** One account's menu pages and, if it reaches the case list, its first case; with its login kept. */
    const discover = async (account: string) => {
      const context = await browser.newContext({ locale: 'zh-CN', viewport: VIEWPORTS[0] });
      try {
        const page = await context.newPage();
        await login(page, baseUrl, account, demoPassword(serverOutput, account));
        await skipTour(page);
        const paths = await menuPaths(page);
        // The case page is reached from the case list, not from a menu: its first case.
        if (paths.includes('/casemanagement/caseview')) {
          // The case list's first row, as the list asks for it (an account may see none).
          const found = await apiCall<{ items: { id?: string; caseId?: string }[] }>(
            page,
            'POST',
            '/cases/search',
            {
              page: 1,
              size: 1,
            },
          );
          const id = found.data?.items?.[0]?.caseId ?? found.data?.items?.[0]?.id;
          if (id) paths.push(`/activecase?caseId=${encodeURIComponent(id)}`);
        }
        return { account, paths, state: await context.storageState() };
      } finally {
        await context.close();
      }
    };
    // A few accounts at a time (the logins dominate); pages go to the first account in ACCOUNTS order.
    const found: Awaited<ReturnType<typeof discover>>[] = [];
    for (let i = 0; i < ACCOUNTS.length; i += 5) {
      found.push(...(await Promise.all(ACCOUNTS.slice(i, i + 5).map(discover))));
    }
    const claimed = new Set<string>();
    for (const { account, paths, state } of found) {
      const mine = paths.filter((p) => !claimed.has(p.split('?')[0]!));
      mine.forEach((p) => claimed.add(p.split('?')[0]!));
      if (mine.length) plan.push({ account, state, paths: mine });
    }
    assert.ok(claimed.size > 20, `only ${claimed.size} pages found in the menus`);
    const fromMenus = claimed.size;
    // Declared pages no demo user's menus reach (a personal page behind the user menu, a page no
    // demo role holds): the administrator or the operator opens them, for the policy and the check.
    for (const [account, areas] of [
      ['demoadmin', ['tenant', 'personal']],
      ['operator', ['operator']],
    ] as const) {
      const rest = declaredMenuPaths(...areas).filter((p) => !claimed.has(p));
      rest.forEach((p) => claimed.add(p));
      const state = found.find((f) => f.account === account)!.state;
      // Mostly pages the account may not open (a forbidden or not-built page): one language is enough.
      if (rest.length) plan.push({ account, state, paths: rest, languages: ['zh'] });
    }
    console.log(
      `    screens: ${fromMenus} pages from the menus, ${claimed.size - fromMenus} more declared, as ${plan.map((v) => v.account).join(', ')}`,
    );
  },
  { timeoutMs: 240_000 },
);

async function visitAll(browser: Browser, baseUrl: string, language: (typeof LANGUAGES)[number]) {
  const failures = new Set<string>();
  for (const visit of plan) {
    if (visit.languages && !visit.languages.includes(language)) continue;
    const context = await browser.newContext({
      locale: 'zh-CN',
      viewport: VIEWPORTS[0],
      storageState: visit.state,
    });
    await context.addInitScript((lang) => localStorage.setItem('pv.language', lang), language);
    const page = await context.newPage();
    const policy = await watchPolicy(page);
    const open = inFlight(page);
    try {
      for (const path of visit.paths) {
        await assertStrictDocument(await page.goto(`${baseUrl}${path}`), path);
        await settle(page, open);
        await assertNoInlineScript(page, path);
        const route = new URL(page.url()).pathname;
        for (const viewport of VIEWPORTS) {
          await page.setViewportSize(viewport);
          await relaidOut(page);
          const findings: Finding[] = unexplained(await checkScreen(page), route, ALLOWED);
          const name = `${language}-${viewport.width}x${viewport.height}${path.split('?')[0]!.replace(/\//g, '_')}`;
          // JPEG: the shots are for reading; PNG encoding of ~500 full screens cost seconds of CPU.
          await page.screenshot({ path: join(SHOTS, `${name}.jpg`), type: 'jpeg', quality: 80 });
          for (const f of findings)
            failures.add(`${visit.account} ${language} ${viewport.width} ${path}: ${f.kind} ${f.text}`);
        }
        await page.setViewportSize(VIEWPORTS[0]);
      }
      for (const v of policy.violations) failures.add(`${visit.account} ${language}: CSP ${v}`);
    } finally {
      await context.close();
    }
  }
  return failures;
}

test(
  `every built page reads cleanly in ${LANGUAGES.join(', ')} at 1280x800 and 1920x1080, under the CSP`,
  async ({ browser, baseUrl }) => {
    assert.ok(plan.length, 'the pages were assigned (the test before)');
    mkdirSync(SHOTS, { recursive: true });
    // Side by side: a visit mostly waits on the server and on rendering.
    const found = await Promise.all(LANGUAGES.map((language) => visitAll(browser, baseUrl, language)));
    const failures = found.flatMap((f) => [...f]);
    assert.equal(failures.length, 0, `${failures.length} findings:\n${failures.join('\n')}`);
  },
  { timeoutMs: 480_000 },
);

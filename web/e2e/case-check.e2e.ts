/**
 * One rule, one place (issue 14 item 6): the case form checks each change with the configuration's
 * compiled validators and rules, served by the server (GET /api/cases/:caseId/validators) and
 * loaded with import() under the strict CSP. For every demo case, and for edited documents (a
 * study report without C.5.4, an age without its unit, a reaction ending before it starts, a height
 * of 170.5), the findings the page shows - beside each field (path, rule id, severity, message) and
 * in each tab's count - equal the findings of the server's check of the same document (the Check
 * button sends the page's document).
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { apiCall, demoPassword, login, skipTour } from './helpers';

interface ServerFinding {
  path: string;
  ruleId: string;
  severity: 'error' | 'warning';
  message: { zh: string; en: string };
}
interface CheckAnswer {
  data: { groups: { tab: string; findings: ServerFinding[] }[] };
}
interface Shown {
  path: string;
  ruleId: string;
  severity: string;
  message: string;
}

const CASES_PER_TEST = 5;
/** The demo seed's 50 cases, five per test (each test stays inside the runner's 60 s). */
const DEMO_CHUNKS = 10;

/** The page's text of a bilingual message (as the i18n module's pickLabel). */
function pick(language: string, text: { zh: string; en: string }): string {
  if (language === 'zh') return text.zh || text.en;
  if (language === 'en') return text.en || text.zh;
  return text.zh === text.en || !text.en ? text.zh : !text.zh ? text.en : `${text.zh} / ${text.en}`;
}

const key = (f: Shown) => JSON.stringify([f.path, f.ruleId, f.severity, f.message]);

/** Clicks Check and answers the server's findings of the document the page holds, by tab. */
async function serverCheck(page: Page): Promise<Map<string, ServerFinding[]>> {
  const answered = page.waitForResponse((r) => /\/api\/cases\/[^/]+\/check/.test(r.url()));
  await page.getByTestId('case-check').click();
  const answer = (await (await answered).json()) as CheckAnswer;
  return new Map(answer.data.groups.map((group) => [group.tab, group.findings]));
}

async function shownCounts(page: Page): Promise<Record<string, [number, number]>> {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll<HTMLElement>('[data-testid^="case-tab-count-"]')].map((badge) => [
        badge.dataset.testid!.slice('case-tab-count-'.length),
        [Number(badge.dataset.errors), Number(badge.dataset.warnings)] as [number, number],
      ]),
    ),
  );
}

/** The findings beside the fields on screen, and which of the server's paths are fields on screen. */
async function shownFindings(page: Page, paths: string[]): Promise<{ shown: Shown[]; onScreen: string[] }> {
  return page.evaluate((paths) => {
    // In the tab's form (the check report panel lists the server's findings with pointers too).
    const panel = document.querySelector('[data-testid^="tab-panel-"]');
    if (!panel) return { shown: [], onScreen: [] };
    const shown = [...panel.querySelectorAll<HTMLElement>('[data-finding]')].map((element) => ({
      path: element.dataset.finding!,
      ruleId: element.dataset.rule!,
      severity: element.dataset.severity!,
      message: element.textContent ?? '',
    }));
    const onScreen = paths.filter((path) => panel.querySelector(`[data-pointer="${CSS.escape(path)}"]`));
    return { shown, onScreen };
  }, paths);
}

/** Polls `compare` until it answers null (equal) or time runs out; fails with the last difference. */
async function eventually(what: string, compare: () => Promise<string | null>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  let difference = await compare();
  while (difference !== null && Date.now() < until) {
    await new Promise((done) => setTimeout(done, 150));
    difference = await compare();
  }
  assert.equal(difference, null, `${what}: ${difference}`);
}

/**
 * Compares the page's findings with the server's check of the same document: the counts of every
 * tab, then tab by tab the findings beside the fields on screen.
 */
async function compareWithServer(page: Page, label: string): Promise<number> {
  const language = (await page.getByTestId('case-detail').getAttribute('data-language')) ?? 'zh';
  const groups = await serverCheck(page);
  await eventually(`${label}: tab counts`, async () => {
    const counts = await shownCounts(page);
    const expected: Record<string, [number, number]> = {};
    for (const [tab, findings] of groups)
      expected[tab] = [
        findings.filter((f) => f.severity === 'error').length,
        findings.filter((f) => f.severity === 'warning').length,
      ];
    const a = JSON.stringify(Object.entries(counts).sort());
    const b = JSON.stringify(Object.entries(expected).sort());
    return a === b ? null : `shown ${a}, server ${b}`;
  });
  // A field may be laid out in more than one tab (the coding review shows the MedDRA fields of the
  // reactions too): each tab shows the findings of every field on screen, whichever tab counts them.
  const all = [...groups.values()].flat();
  for (const tab of groups.keys()) {
    await page.getByTestId(`case-tab-${tab}`).click();
    await page.getByTestId(`tab-panel-${tab}`).waitFor();
    await eventually(`${label}: findings beside the fields of tab ${tab}`, async () => {
      const { shown, onScreen } = await shownFindings(
        page,
        all.map((f) => f.path),
      );
      const visible = new Set(onScreen);
      const expected = all
        .filter((f) => visible.has(f.path))
        .map((f) => key({ ...f, message: pick(language, f.message) }))
        .sort();
      const actual = shown.map(key).sort();
      return JSON.stringify(actual) === JSON.stringify(expected)
        ? null
        : `shown ${JSON.stringify(actual)}, server ${JSON.stringify(expected)}`;
    });
  }
  return [...groups.values()].flat().length;
}

async function openCase(page: Page, baseUrl: string, caseId: string): Promise<void> {
  const offered = page.waitForResponse((r) => r.url().includes(`/api/cases/${caseId}/validators`));
  await page.goto(`${baseUrl}/activecase?caseId=${caseId}`);
  assert.equal((await offered).status(), 200);
  // The worker imported the served module and answered its first result.
  await page.locator('[data-testid="case-detail"][data-check="ready"]').waitFor({ timeout: 20_000 });
}

async function signIn(page: Page, baseUrl: string, serverOutput: string): Promise<void> {
  await login(page, baseUrl, 'demoadmin', demoPassword(serverOutput, 'demoadmin'));
  await skipTour(page);
}

for (let chunk = 0; chunk < DEMO_CHUNKS; chunk++) {
  test(`demo cases ${chunk * CASES_PER_TEST + 1}-${(chunk + 1) * CASES_PER_TEST}: the page shows the server's check findings`, async ({
    page,
    baseUrl,
    serverOutput,
  }) => {
    await signIn(page, baseUrl, serverOutput);
    const list = await apiCall<{ items: { id: string }[] }>(page, 'POST', '/cases/search', {
      page: chunk + 1,
      size: CASES_PER_TEST,
    });
    assert.equal(list.code, 200, list.msg);
    for (const { id } of list.data.items) {
      await openCase(page, baseUrl, id);
      await compareWithServer(page, `case ${id}`);
    }
  });
}

test('edited documents: a study report without C.5.4, an age without its unit, a reaction ending before it starts, a height of 170.5', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await signIn(page, baseUrl, serverOutput);
  const list = await apiCall<{ items: { values: { report_studyProjectId?: string } }[] }>(
    page,
    'POST',
    '/cases/search',
    { page: 1, size: 1 },
  );
  const projectId = list.data.items[0]?.values.report_studyProjectId;
  assert.ok(projectId, 'the demo seed has cases in a project');
  // A report from a study (C.1.3 = 2) whose age has no unit and whose reaction ends before it starts.
  const created = await apiCall<{ case: { id: string } }>(page, 'POST', '/cases', {
    projectId,
    reportType: '2',
    happenCountry: 'CN',
    document: {
      patient: { initials: 'ZS', age: 45 },
      reactions: [
        {
          id: '00000000-0000-4000-8000-00000000e2e1',
          reactionNative: '皮疹',
          reactionNativeLanguage: 'chi',
          startDate: '20260301',
          endDate: '20260201',
        },
      ],
    },
  });
  assert.equal(created.code, 200, created.msg);
  const caseId = created.data.case.id;
  await openCase(page, baseUrl, caseId);
  const before = await compareWithServer(page, 'age without unit, reaction ending before it starts');
  assert.ok(before > 0, 'the edited document has findings');

  // Typed in the page: a height of 170.5 (D.4 is a whole number of centimetres).
  await page.getByTestId('case-tab-patient').click();
  await page.locator('#f-patient-height').fill('170.5');
  const height = page.locator('[data-finding="/patient/height"]');
  await height.first().waitFor();
  await compareWithServer(page, 'height 170.5');

  // C.5.4 taken away from the study report.
  await page.getByTestId('case-tab-overview').click();
  const studyType = page.locator('[data-pointer="/study/discoveredEventType"]');
  // Fluent's clearable dropdown: its clear button (shown while a value is chosen).
  await studyType.locator('button[aria-label="Clear selection"]').first().click({ force: true });
  const studyFinding = page.locator('[data-finding="/study/discoveredEventType"][data-rule="ich.C.5.4"]');
  await studyFinding.first().waitFor();
  await compareWithServer(page, 'study report without C.5.4');
  await screenshot('edited-findings');
  // The findings shown name the rules broken, as the server's check does.
  const rules = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-finding]')].map((e) => e.dataset.rule),
  );
  assert.ok(rules.length > 0);
});

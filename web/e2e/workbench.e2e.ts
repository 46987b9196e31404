import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from './kit';
import { demoPassword, expectAttributes, login, skipTour } from './helpers';

interface Feed {
  total: number;
  items: { id: string; daysLeft: number | null }[];
}

/** The answer the page itself receives for a workbench call whose URL contains `fragment`. */
function answerOf(page: Page, fragment: string) {
  return page
    .waitForResponse((r) => r.url().includes(`/api/workbench/${fragment}`))
    .then(async (r) => ((await r.json()) as { data: unknown }).data);
}

/** The feed rows of a block, once shown, are the cases of the answer, in its order. */
const expectShown = (page: Page, testId: string, ids: string[]) =>
  expectAttributes(page, `[data-testid="${testId}"] [data-testid="feed-row"]`, 'data-case-id', ids);

test('personal workbench: counts, to-do and overtime blocks from the server, feeds and case links', async ({
  page,
  baseUrl,
  serverOutput,
  screenshot,
}) => {
  await login(page, baseUrl, 'entry', demoPassword(serverOutput, 'entry'));
  await skipTour(page);
  const counts = answerOf(page, 'counts') as Promise<{
    todo: number;
    overdue: number;
    predue: Record<string, number>;
  }>;
  const todo = answerOf(page, 'todo?page=1&size=5') as Promise<Feed>;
  const overdue = answerOf(page, 'overdue?page=1&size=5') as Promise<Feed>;
  await page.goto(`${baseUrl}/home/personalhome`);
  await page.getByTestId('workbench').waitFor();

  // Tiles show the counts; the to-do count agrees with the to-do feed (two routes, one truth).
  const c = await counts;
  const todoFeed = await todo;
  assert.ok(todoFeed.total > 0, 'the demo data entry clerk has cases to do');
  assert.equal(c.todo, todoFeed.total);
  await page
    .getByTestId('count-todo')
    .filter({ hasText: String(c.todo) })
    .waitFor();
  await page
    .getByTestId('count-overdue')
    .filter({ hasText: String(c.overdue) })
    .waitFor();
  for (const days of ['7', '15', '30'])
    await page
      .getByTestId(`count-predue-${days}`)
      .filter({ hasText: String(c.predue[days]) })
      .waitFor();
  assert.ok(c.predue['7']! <= c.predue['15']! && c.predue['15']! <= c.predue['30']!);

  // The to-do block lists the feed's first cases in order.
  await page.getByTestId('block-todo').getByTestId('feed-row').first().waitFor();
  await expectShown(
    page,
    'block-todo',
    todoFeed.items.map((i) => i.id),
  );

  // Overtime block: overdue first, then the 7/15/30-day windows, each from its own call.
  const overdueFeed = await overdue;
  assert.equal(overdueFeed.total, c.overdue);
  await page.getByTestId('block-overdue').waitFor();
  await expectShown(
    page,
    'block-overdue',
    overdueFeed.items.map((i) => i.id),
  );
  const within15 = answerOf(page, 'predue?page=1&size=5&days=15') as Promise<Feed>;
  await page.getByTestId('overtime-tab-predue-15').click();
  const predue = await within15;
  assert.equal(predue.total, c.predue['15']);
  for (const item of predue.items)
    assert.ok(item.daysLeft !== null && item.daysLeft >= 0 && item.daysLeft <= 15);
  await page.getByTestId('block-predue').waitFor();
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="block-predue"] [data-testid="feed-row"]').length === n,
    predue.items.length,
  );
  await screenshot('workbench');

  // "More" opens the whole to-do feed with paging; a report code opens the case.
  const fullTodo = answerOf(page, 'todo?page=1&size=20') as Promise<Feed>;
  await page.getByTestId('more-todo').click();
  await page.waitForURL((url) => url.pathname === '/home/casetodo');
  const full = await fullTodo;
  await page.getByTestId('feed-todo').getByTestId('feed-row').first().waitFor();
  await expectShown(
    page,
    'feed-todo',
    full.items.map((i) => i.id),
  );
  await page.getByTestId('feed-todo').getByTestId('feed-row').first().getByTestId('open-case').click();
  await page.waitForURL(
    (url) => url.pathname === '/activecase' && url.searchParams.get('caseId') === full.items[0]!.id,
  );
});

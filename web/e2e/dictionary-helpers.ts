/** Dictionary steps shared by the browser tests: a synthetic release imported through the upload route. */
import assert from 'node:assert/strict';
import { strToU8, zipSync } from 'fflate';
import type { Page } from 'playwright-core';

/** The signed-in user's token, for API calls made beside the screens. */
export async function tokenOf(page: Page): Promise<string> {
  return (await page.evaluate(() => localStorage.getItem('pv.token'))) ?? '';
}

/**
 * Imports a release as the signed-in user through the upload route and waits for its task. The
 * same release imported by an earlier test of the run is recognised ('unchanged').
 */
export async function importRelease(
  page: Page,
  baseUrl: string,
  kind: 'meddra' | 'whodrug',
  files: Map<string, string>,
  version?: string,
): Promise<void> {
  const token = await tokenOf(page);
  const zip = zipSync(Object.fromEntries([...files].map(([name, content]) => [name, strToU8(content)])));
  const query = new URLSearchParams({ kind, ...(version ? { version } : {}) });
  const started = await page.request.post(`${baseUrl}/api/dictionaries/imports?${query}`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/zip' },
    data: Buffer.from(zip),
  });
  const job = ((await started.json()) as { data: { jobId: string } }).data;
  for (let i = 0; i < 120; i++) {
    const answer = await page.request.get(`${baseUrl}/api/jobs/${job.jobId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const data = ((await answer.json()) as { data: { status: string; result: { outcome: string } | null } })
      .data;
    if (data.status === 'succeeded') {
      assert.ok(['imported', 'unchanged'].includes(data.result?.outcome ?? ''), JSON.stringify(data.result));
      return;
    }
    assert.notEqual(data.status, 'failed');
    await page.waitForTimeout(500);
  }
  throw new Error(`the ${kind} import did not finish`);
}

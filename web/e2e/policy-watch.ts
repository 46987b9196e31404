/**
 * The Content-Security-Policy watch shared by the CSP test (csp.e2e.ts) and the page walk
 * (screens.e2e.ts, which visits every built page and so also proves that each loads under the
 * policy): violations are caught by a `securitypolicyviolation` listener installed before any page
 * script, and by Chromium's console report (which also covers violations outside the document).
 */
import assert from 'node:assert/strict';
import type { Page, Response } from 'playwright-core';

export interface PolicyWatch {
  violations: string[];
}

export async function watchPolicy(page: Page): Promise<PolicyWatch> {
  const watch: PolicyWatch = { violations: [] };
  await page.exposeFunction('__pvCspViolation', (text: string) => watch.violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __pvCspViolation(text: string): void }).__pvCspViolation;
      report(
        `${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber} on ${location.pathname}`,
      );
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text()))
      watch.violations.push(`console: ${message.text()} on ${new URL(page.url()).pathname}`);
  });
  return watch;
}

/** The document's answer carries the strict policy and its HTML holds no inline script. */
export async function assertStrictDocument(response: Response | null, path: string): Promise<void> {
  assert.ok(response, `no answer for ${path}`);
  const policy = response.headers()['content-security-policy'] ?? '';
  assert.match(policy, /script-src 'self'(;|$)/, `${path} is served without the strict script policy`);
  assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/, `${path}: ${policy}`);
  const html = await response.text();
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/i, `${path}: index.html has an inline script`);
}

/** No inline <script> element in the settled document (none added by the app at run time either). */
export async function assertNoInlineScript(page: Page, path: string): Promise<void> {
  const inline = await page.evaluate(
    () => [...document.querySelectorAll('script')].filter((s) => !s.src).length,
  );
  assert.equal(inline, 0, `${path}: ${inline} inline <script> element(s) in the document`);
}

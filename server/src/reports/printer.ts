/**
 * PDF printing by Chromium (playwright-core, headless): one browser is kept warm for the process and
 * each document gets its own page, closed after printing. Fonts are the system's (fonts-noto-cjk for
 * Chinese); Chromium embeds the subset of each font a document uses.
 */
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'];

let browser: Promise<Browser> | undefined;

function warmBrowser(): Promise<Browser> {
  if (!browser) {
    const launching = chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
    browser = launching;
    launching.then(
      (b) => b.on('disconnected', () => (browser === launching ? (browser = undefined) : undefined)),
      () => (browser = undefined),
    );
  }
  return browser;
}

/** Prints an HTML document to an A4 PDF (page size and margins from the document's @page rule). */
export async function printPdf(html: string): Promise<Uint8Array> {
  const b = await warmBrowser();
  const context = await b.newContext({ javaScriptEnabled: false, offline: true });
  try {
    const page = await context.newPage();
    // The documents are self-contained: no request leaves the page.
    await page.route('**/*', (route) => route.abort());
    await page.setContent(html, { waitUntil: 'load' });
    await page.evaluateHandle('document.fonts.ready').catch(() => undefined);
    const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: true });
    return new Uint8Array(pdf);
  } finally {
    await context.close();
  }
}

/** Closes the warm browser (end of a CLI run, of a test file, of the server). */
export async function closePrinter(): Promise<void> {
  const current = browser;
  browser = undefined;
  if (current) await (await current).close().catch(() => undefined);
}

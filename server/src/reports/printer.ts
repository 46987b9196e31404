/**
 * PDF printing by Chromium (playwright-core, headless): one browser is kept warm for the process, with
 * up to two warm pages (each in its own context, scripts off, every request refused) that print one
 * document at a time. Fonts are the system's (fonts-wqy-zenhei for Chinese, fonts-noto-cjk as the
 * templates' fallback); Chromium embeds the subset of each font a document uses.
 */
import { PDFDocument } from 'pdf-lib';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

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

/** Warm pages, each printing one document at a time; a page that failed is dropped, not reused. */
const idle: Page[] = [];
const POOL = 2;
let open = 0;
const waiting: ((page: Page) => void)[] = [];

async function takePage(): Promise<Page> {
  const ready = idle.pop();
  if (ready && !ready.isClosed()) return ready;
  if (open < POOL) {
    open++;
    try {
      const context = await (await warmBrowser()).newContext({ javaScriptEnabled: false, offline: true });
      const page = await context.newPage();
      // The documents are self-contained: no request leaves the page.
      await page.route('**/*', (route) => route.abort());
      return page;
    } catch (error) {
      open--;
      throw error;
    }
  }
  return new Promise((resolve) => waiting.push(resolve));
}

function givePage(page: Page, healthy: boolean): void {
  if (!healthy) {
    open--;
    void page
      .context()
      .close()
      .catch(() => undefined);
    // A waiter gets a fresh page instead.
    const next = waiting.shift();
    if (next) void takePage().then(next);
    return;
  }
  const next = waiting.shift();
  if (next) next(page);
  else idle.push(page);
}

/** Prints an HTML document to an A4 PDF (page size and margins from the document's @page rule). */
export async function printPdf(html: string): Promise<Uint8Array> {
  const page = await takePage();
  let healthy = false;
  try {
    await page.setContent(html, { waitUntil: 'load' });
    const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: true });
    healthy = true;
    return new Uint8Array(pdf);
  } finally {
    givePage(page, healthy);
  }
}

/**
 * Prints several documents laid out in one HTML (each starting on a new page) in one pass and
 * splits the PDF by their page counts: one page load, layout and font subset for the batch instead
 * of one each (and with the Noto CJK fallback, which Chromium writes as Type 3 fonts, one glyph
 * conversion). Answers null when the printed page count is not the sum of the parts' (a layout that broke
 * a page differently): the caller prints them one by one instead.
 */
export async function printPdfParts(
  html: string,
  parts: { pages: number; title: string }[],
): Promise<Uint8Array[] | null> {
  const whole = await PDFDocument.load(await printPdf(html), { updateMetadata: false });
  if (whole.getPageCount() !== parts.reduce((sum, part) => sum + part.pages, 0)) return null;
  const out: Uint8Array[] = [];
  let first = 0;
  for (const part of parts) {
    const one = await PDFDocument.create({ updateMetadata: false });
    const indexes = Array.from({ length: part.pages }, (_, i) => first + i);
    for (const page of await one.copyPages(whole, indexes)) one.addPage(page);
    one.setTitle(part.title);
    one.setCreator('Chromium');
    one.setProducer('pdf-lib');
    out.push(await one.save());
    first += part.pages;
  }
  return out;
}

/** Closes the warm browser (end of a CLI run, of a test file, of the server). */
export async function closePrinter(): Promise<void> {
  const current = browser;
  browser = undefined;
  idle.length = 0;
  open = 0;
  if (current) await (await current).close().catch(() => undefined);
}

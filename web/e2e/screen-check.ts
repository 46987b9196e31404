/**
 * The screenshot check (issue 16 item 5): what a page shows must read like a product. Runs in the
 * page and reports
 * - `overlap`: two visible text boxes over each other (bounding boxes of text nodes, clipped by
 *   their scrolling/overflow-hidden ancestors; a text covered by an opaque layer above it, such as
 *   a pinned table column or a dialog, is not visible there and does not count);
 * - `internal-id`: a visible text or input value that looks like an internal id (UUID, 24-hex);
 * - `raw-cell`: a table cell reading true/false/null/undefined/[object Object];
 * - `page-scroll`: a horizontal scrollbar outside a table (the page or any other scroller).
 */
import type { Page } from 'playwright-core';

export type FindingKind = 'overlap' | 'internal-id' | 'raw-cell' | 'page-scroll';

export interface Finding {
  kind: FindingKind;
  text: string;
}

/** In-page part: must be self-contained (it is serialised into the page). */
function inspect(): { kind: string; text: string }[] {
  const findings: { kind: string; text: string }[] = [];
  type Box = { left: number; top: number; right: number; bottom: number };
  const clipOf = (element: Element): Box | null => {
    let box: Box = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight };
    for (let e: Element | null = element; e && e !== document.documentElement; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
        const r = e.getBoundingClientRect();
        box = {
          left: Math.max(box.left, r.left),
          top: Math.max(box.top, r.top),
          right: Math.min(box.right, r.right),
          bottom: Math.min(box.bottom, r.bottom),
        };
      }
    }
    return box.right > box.left && box.bottom > box.top ? box : null;
  };
  const intersect = (a: Box, b: Box): Box | null => {
    const box = {
      left: Math.max(a.left, b.left),
      top: Math.max(a.top, b.top),
      right: Math.min(a.right, b.right),
      bottom: Math.min(a.bottom, b.bottom),
    };
    return box.right > box.left && box.bottom > box.top ? box : null;
  };
  const opaque = (e: Element) => {
    const color = getComputedStyle(e).backgroundColor;
    return color !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(color);
  };
  /**
   * Whether an opaque layer lies above the text at a point: a positioned element (pinned column,
   * sticky header, dialog, toast) that is not the text's own box or ancestor. Backgrounds of
   * elements in the flow paint below every text, so they never hide one.
   */
  const covered = (owner: Element, x: number, y: number) => {
    for (const e of document.elementsFromPoint(x, y)) {
      if (e === owner || e.contains(owner)) return false;
      if (!owner.contains(e) && opaque(e) && getComputedStyle(e).position !== 'static') return true;
    }
    return false;
  };

  const texts: { owner: Element; text: string; boxes: Box[] }[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim() ?? '';
    const owner = node.parentElement;
    if (!text || !owner || owner.closest('script,style,noscript,[aria-hidden="true"]')) continue;
    if (!owner.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const clip = clipOf(owner);
    if (!clip) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const boxes = [...range.getClientRects()]
      .map((r) => intersect({ left: r.left, top: r.top, right: r.right, bottom: r.bottom }, clip))
      .filter((b): b is Box => b !== null && b.right - b.left > 1 && b.bottom - b.top > 1);
    if (boxes.length) texts.push({ owner, text, boxes });
  }

  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i]!;
      const b = texts[j]!;
      for (const ba of a.boxes) {
        for (const bb of b.boxes) {
          const both = intersect(ba, bb);
          if (!both) continue;
          const width = both.right - both.left;
          const height = both.bottom - both.top;
          const smaller = Math.min(ba.bottom - ba.top, bb.bottom - bb.top);
          // Line boxes of neighbouring lines may touch by a few pixels (a font's ascent and descent
          // exceed the line height): only a real overlap counts.
          if (width < 3 || height < Math.max(3, smaller * 0.4)) continue;
          const x = (both.left + both.right) / 2;
          const y = (both.top + both.bottom) / 2;
          if (covered(a.owner, x, y) || covered(b.owner, x, y)) continue;
          findings.push({ kind: 'overlap', text: `"${a.text.slice(0, 40)}" over "${b.text.slice(0, 40)}"` });
        }
      }
    }
  }

  const ID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\b[0-9a-f]{24}\b/i;
  for (const t of texts)
    if (ID.test(t.text)) findings.push({ kind: 'internal-id', text: t.text.slice(0, 80) });
  for (const input of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input,textarea')) {
    // A radio's or checkbox's value is never shown (its label is).
    if (['password', 'hidden', 'radio', 'checkbox'].includes(input.type) || !input.checkVisibility())
      continue;
    if (ID.test(input.value))
      findings.push({ kind: 'internal-id', text: `input value ${input.value.slice(0, 80)}` });
  }

  const RAW = new Set(['true', 'false', 'null', 'undefined', '[object Object]', 'NaN']);
  for (const cell of document.querySelectorAll<HTMLElement>('td,[role="cell"],[role="gridcell"]')) {
    if (!cell.checkVisibility()) continue;
    const text = (cell.innerText ?? '').trim();
    const parts = text.split(/\s*(?:·|;|,|\n)\s*/);
    if (text.includes('[object Object]') || parts.some((p) => RAW.has(p)))
      findings.push({ kind: 'raw-cell', text: text.slice(0, 80) });
  }

  const root = document.scrollingElement ?? document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1) findings.push({ kind: 'page-scroll', text: 'document' });
  for (const e of document.querySelectorAll<HTMLElement>('body *')) {
    if (e.scrollWidth <= e.clientWidth + 1 || e.closest('[data-table-scroll],textarea,input,select'))
      continue;
    const style = getComputedStyle(e);
    if ((style.overflowX === 'auto' || style.overflowX === 'scroll') && e.checkVisibility()) {
      const label = e.getAttribute('data-testid') ?? e.getAttribute('aria-label') ?? e.tagName.toLowerCase();
      findings.push({ kind: 'page-scroll', text: `${label} (${e.scrollWidth} > ${e.clientWidth})` });
    }
  }
  return findings;
}

/** The findings on the page as it shows now (its viewport, at the current scroll positions). */
export async function checkScreen(page: Page): Promise<Finding[]> {
  // tsx names the inner functions through a helper (__name) the page does not have.
  await page.evaluate('globalThis.__name ??= (f) => f');
  return (await page.evaluate(inspect)) as Finding[];
}

/**
 * Known findings the check lets pass, each with why and the issue that closes it. An entry is a
 * finding to close, not a decision: keep this list short and say who owns the fix.
 */
export interface Allowance {
  /** Route path the finding is on ('*' for all). */
  path: string;
  kind: FindingKind;
  /** The finding's text contains this. */
  contains: string;
  why: string;
}

export function unexplained(findings: Finding[], path: string, allowed: Allowance[]): Finding[] {
  return findings.filter(
    (f) =>
      !allowed.some(
        (a) => (a.path === '*' || a.path === path) && a.kind === f.kind && f.text.includes(a.contains),
      ),
  );
}

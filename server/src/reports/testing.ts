/**
 * Test helpers: text of a PDF read back with pdfjs-dist (page by page, NFKC-normalised: Noto CJK's
 * ToUnicode maps some ideographs to their Kangxi-radical code points, which NFKC folds back) and the
 * characters each embedded font maps from a real glyph. Chromium writes, for a glyph Noto CJK shares between
 * an ideograph and a CJK radical, the radical's code point; NFKC folds the Kangxi radicals, RADICAL_FOLD the
 * Radicals Supplement ones that fonts draw with the same glyph as the simplified ideograph (engine foldPdfText).
 */
import { loadPdfjs } from '../pdfjs';
import { foldPdfText } from '@pv/engine';

const fold = foldPdfText;

export interface PdfText {
  pages: string[];
  /** Per font used: its name, whether the file is embedded, the characters its glyphs map to (glyph 0 excluded). */
  fonts: { name: string; embedded: boolean; chars: Set<string> }[];
}

export async function readPdf(bytes: Uint8Array): Promise<PdfText> {
  const { OPS, getDocument } = await loadPdfjs();
  const pdf = await getDocument({
    data: bytes.slice(),
    fontExtraProperties: true,
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
  }).promise;
  const pages: string[] = [];
  const fonts = new Map<string, { name: string; embedded: boolean; chars: Set<string> }>();
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    pages.push(
      fold(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('')),
    );
    // pdfjs joins adjacent runs into one text item under the first run's font, so the fonts come from
    // the page's setFont operations, not from the items.
    const operators = await page.getOperatorList();
    operators.fnArray.forEach((fn, i) => {
      if (fn !== OPS.setFont) return;
      const fontName = (operators.argsArray[i] as [string])[0];
      if (fonts.has(fontName)) return;
      const font = page.commonObjs.get(fontName) as {
        name?: string;
        missingFile?: boolean;
        toUnicode?: { _map?: (string | undefined)[] };
      };
      const chars = new Set<string>();
      (font.toUnicode?._map ?? []).forEach((unicode, code) => {
        if (code !== 0 && unicode) for (const c of fold(unicode)) chars.add(c);
      });
      fonts.set(fontName, { name: font.name ?? '', embedded: font.missingFile === false, chars });
    });
  }
  await pdf.destroy();
  return { pages, fonts: [...fonts.values()] };
}

/** Whitespace removed: lines wrap at spaces, so a value is found whole whatever the wrapping. */
export const squash = (text: string): string => fold(text).replace(/\s+/g, '');

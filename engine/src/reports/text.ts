/**
 * Text measured in half-width cells, as the report templates print it in a monospaced CJK font (Noto Sans
 * Mono CJK): an ASCII character takes one cell, anything else two. Counting every non-ASCII character as
 * full width over-estimates some Latin letters, which only wraps earlier; it never lets a line overflow.
 */

export const cellsOf = (char: string): number => ((char.codePointAt(0) ?? 0) < 0x80 ? 1 : 2);

export function widthOf(text: string): number {
  let width = 0;
  for (const char of text) width += cellsOf(char);
  return width;
}

/** Characters after which a line may break without a space: CJK ideographs, kana, full-width punctuation. */
const breaksAround = (char: string): boolean => {
  const code = char.codePointAt(0) ?? 0;
  return (
    (code >= 0x2e80 && code <= 0x9fff) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xff00 && code <= 0xffef)
  );
};

/**
 * Wraps text to lines of at most `width` cells: at spaces where it can, between Chinese characters, and
 * inside a word only when the word alone is wider than the line. Every character of the input is kept
 * except the single space a line breaks at; line breaks in the text are kept.
 */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.replace(/\r\n?/g, '\n').split('\n')) {
    let line: string[] = [];
    let lineWidth = 0;
    // Index in `line` after which the line may break, and whether the break consumes a space there.
    let breakAt = -1;
    let breakIsSpace = false;
    for (const char of paragraph.replace(/\t/g, ' ')) {
      const cells = cellsOf(char);
      if (lineWidth + cells > width && line.length > 0) {
        if (char === ' ') {
          lines.push(line.join(''));
          line = [];
          lineWidth = 0;
          breakAt = -1;
          continue;
        }
        if (breakAt >= 0) {
          const head = line.slice(0, breakIsSpace ? breakAt : breakAt + 1);
          const tail = line.slice(breakAt + 1);
          lines.push(head.join(''));
          line = tail;
          lineWidth = widthOf(tail.join(''));
        } else {
          lines.push(line.join(''));
          line = [];
          lineWidth = 0;
        }
        breakAt = -1;
        for (let i = 0; i < line.length; i++)
          if (breaksAround(line[i] as string)) {
            breakAt = i;
            breakIsSpace = false;
          }
      }
      line.push(char);
      lineWidth += cells;
      if (char === ' ') {
        breakAt = line.length - 1;
        breakIsSpace = true;
      } else if (breaksAround(char)) {
        breakAt = line.length - 1;
        breakIsSpace = false;
      } else if (line.length >= 2 && breaksAround(line[line.length - 2] as string)) {
        breakAt = line.length - 2;
        breakIsSpace = false;
      }
    }
    lines.push(line.join(''));
  }
  return lines;
}

/**
 * Radicals Supplement code points Chromium writes (in a PDF's ToUnicode map) for a glyph Noto CJK
 * shares with the simplified ideograph; NFKC folds the Kangxi radicals, this the rest.
 */
const RADICAL_FOLD: Record<string, string> = {
  '⺠': '民',
  '⺟': '母',
  '⻄': '西',
  '⻅': '见',
  '⻆': '角',
  '⻉': '贝',
  '⻋': '车',
  '⻓': '长',
  '⻔': '门',
  '⻘': '青',
  '⻚': '页',
  '⻛': '风',
  '⻜': '飞',
  '⻝': '食',
  '⻢': '马',
  '⻥': '鱼',
  '⻦': '鸟',
  '⻬': '齐',
  '⻮': '齿',
  '⻰': '龙',
  '⻳': '龟',
};

/** Text read back from a printed PDF as it was written: NFKC, CJK radicals folded to their ideographs. */
export const foldPdfText = (text: string): string =>
  text.normalize('NFKC').replace(/[\u2e80-\u2eff]/g, (c) => RADICAL_FOLD[c] ?? c);

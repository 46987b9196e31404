/**
 * CIOMS I forms read back from PDF (issue 21 item 3): the text with its positions by pdf.js, each
 * box located by its printed label (schemas/reports/cioms.json, zh, en or both), each value line
 * given to the box whose label stands above it and to its left, continuation pages followed by their
 * "Item N (continued)" headings; then the declared import template (schemas/reports/cioms-import.json)
 * turns the boxes into case fields by E2B id, converted as a line-listing cell is. One case per form;
 * a PDF may hold several forms (each starts on a page with the form's labels). A file that is no
 * PDF, is encrypted, holds no text (a scan: no OCR) or no CIOMS I form is refused, naming why.
 */
import { loadPdfjs } from '../pdfjs';
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import {
  CHECKED,
  ciomsMapping,
  convertCell,
  foldPdfText,
  intakeFields,
  mergeRow,
  reportText,
  widthOf,
} from '@pv/engine';
import type { IntakeField, IntakeProblem } from '@pv/engine';
import template from '../../../schemas/reports/cioms-import.json';

type Doc = Record<string, unknown>;

export interface CiomsRefusal {
  key: string;
  params: Record<string, string | number>;
}

export class CiomsRefusedError extends Error {
  constructor(readonly refusal: CiomsRefusal) {
    super(`${refusal.key} ${JSON.stringify(refusal.params)}`);
  }
}

interface TemplateBox {
  box: string;
  value?: string;
  each?: string;
  lines?: string[];
  pattern?: string;
  groups?: string[];
  rest?: string;
  section?: string;
  set?: Record<string, string>;
  checks?: { field: string; label: { zh: string; en: string } }[];
}

export const CIOMS_IMPORT = template as { dateFormats: string[]; boxes: TemplateBox[] };

/** A PDF bigger than this many pages is no CIOMS batch a person sends. */
const MAX_PAGES = 2000;
/** Fewer labels than this found on a page: not a form page. */
const MIN_LABELS = 12;

interface Piece {
  x: number;
  y: number;
  text: string;
}

/** The text pieces of each page (empty runs left out), top to bottom as printed. */
async function pdfPages(bytes: Uint8Array): Promise<Piece[][]> {
  const { getDocument } = await loadPdfjs();
  let pdf;
  try {
    pdf = await getDocument({
      // A copy as a plain Uint8Array: pdf.js refuses a Node Buffer (what the file store hands over).
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      useSystemFonts: false,
      disableFontFace: true,
      stopAtErrors: true,
      verbosity: 0,
    }).promise;
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'PasswordException')
      throw new CiomsRefusedError({ key: 'imports.cioms.encrypted', params: {} });
    throw new CiomsRefusedError({ key: 'imports.cioms.notPdf', params: {} });
  }
  try {
    if (pdf.numPages > MAX_PAGES)
      throw new CiomsRefusedError({ key: 'imports.cioms.tooManyPages', params: { limit: MAX_PAGES } });
    const pages: Piece[][] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      // Runs printed one after the other on a baseline ("1." " " "患者姓名缩写") are one piece.
      const pieces: (Piece & { end: number })[] = [];
      for (const item of content.items as TextItem[]) {
        if (typeof item.str !== 'string' || item.str === '') continue;
        const x = item.transform[4] as number;
        const y = item.transform[5] as number;
        const last = pieces[pieces.length - 1];
        if (last && Math.abs(last.y - y) < 0.5 && Math.abs(x - last.end) < 1.5) {
          last.text += foldPdfText(item.str);
          last.end = x + item.width;
        } else pieces.push({ x, y, text: foldPdfText(item.str), end: x + item.width });
      }
      pages.push(pieces.map(({ x, y, text }) => ({ x, y, text })));
      page.cleanup();
    }
    return pages;
  } finally {
    await pdf.destroy();
  }
}

const squash = (text: string): string =>
  foldPdfText(text)
    .replace(/[^\p{L}\p{N}]+/gu, '')
    .toUpperCase();

type Mode = 'zh' | 'en' | 'both';
const labelOf = (id: string, mode: Mode): string => {
  const label = ciomsMapping.boxes.find((b) => b.id === id)!.label;
  return mode === 'both' ? label.zh + label.en : label[mode];
};
const BOX_IDS = ciomsMapping.boxes.map((b) => b.id);
const SECTION_TITLES: Record<Mode, Set<string>> = {
  zh: new Set(ciomsMapping.sections.map((s) => squash(s.label.zh))),
  en: new Set(ciomsMapping.sections.map((s) => squash(s.label.en))),
  both: new Set(
    ciomsMapping.sections.flatMap((s) => [
      squash(s.label.zh),
      squash(s.label.en),
      squash(s.label.zh + s.label.en),
    ]),
  ),
};

interface Anchor {
  id: string;
  x: number;
  y: number;
}

/** The pieces that begin each box's label on a page, in print order. */
function anchorsOf(pieces: Piece[], mode: Mode): Anchor[] {
  const found: Anchor[] = [];
  const used = new Set<Piece>();
  for (const id of BOX_IDS) {
    const label = squash(labelOf(id, mode));
    const piece = pieces.find((p) => {
      if (used.has(p)) return false;
      const text = squash(p.text);
      return text.length >= Math.min(4, label.length) && label.startsWith(text);
    });
    if (!piece) continue;
    used.add(piece);
    found.push({ id, x: piece.x, y: piece.y });
  }
  return found;
}

/** The lines of each box on a form page: pieces on one baseline joined, top to bottom. */
function boxLines(
  pieces: Piece[],
  anchors: Anchor[],
  mode: Mode,
  pageText: (row: string) => boolean,
): Map<string, string[]> {
  const byBox = new Map<string, Piece[]>();
  const lines = [...pieces].sort((a, b) => b.y - a.y || a.x - b.x);
  let previous: { piece: Piece; box: string } | null = null;
  for (const piece of lines) {
    // A piece continuing a line (a run of another font, a space) stays in that line's box.
    let box: string | undefined;
    const starts = anchors.some((a) => Math.abs(a.x - piece.x) < 1);
    if (previous && Math.abs(previous.piece.y - piece.y) < 1.5 && !starts) box = previous.box;
    else {
      // The box whose label stands nearest above, among those starting furthest right at or left of it.
      const left = anchors.filter((a) => a.x <= piece.x + 1 && a.y >= piece.y - 0.5);
      const column = Math.max(...left.map((a) => a.x));
      box = left.filter((a) => Math.abs(a.x - column) < 1).sort((a, b) => a.y - b.y)[0]?.id;
    }
    if (!box) continue;
    previous = { piece, box };
    byBox.set(box, [...(byBox.get(box) ?? []), piece]);
  }
  const out = new Map<string, string[]>();
  for (const [id, boxPieces] of byBox) {
    const rows: string[] = [];
    let y: number | null = null;
    for (const piece of boxPieces) {
      if (y !== null && Math.abs(piece.y - y) < 1.5) rows[rows.length - 1] += piece.text;
      else rows.push(piece.text);
      y = piece.y;
    }
    // The label's own lines first: as many as spell it.
    const label = squash(labelOf(id, mode));
    let read = '';
    let skip = 0;
    while (skip < rows.length && label.startsWith(read + squash(rows[skip]!)) && read.length < label.length) {
      read += squash(rows[skip]!);
      skip++;
    }
    // A section's title printed below a box's last line is no value of it.
    out.set(
      id,
      rows.slice(skip).filter((row) => !SECTION_TITLES[mode].has(squash(row)) && !pageText(row.trim())),
    );
  }
  return out;
}

const CONTINUED = [
  /^Item (\S+) \(continued(?: from page \d+)?\)$/,
  /^第 ?(\S+?) ?项（(?:接第 ?\d+ ?页|续)）$/,
];
const REFERENCE = [
  /^see continuation page \d+, item \S+$/,
  /^cont\. p\.\d+$/,
  /^见续页 ?\d+，第 ?\S+ ?项$/,
  /^续页\d+$/,
];
const PAGE_LABEL = [/^Page \d+ of \d+$/, /^第 ?\d+ ?页，共 ?\d+ ?页$/];

interface Form {
  mode: Mode;
  boxes: Map<string, string[]>;
  /** Lines of continuation pages per box. */
  continued: Map<string, string[]>;
}

/** The forms of a PDF: a page with the form's labels starts one, other pages continue it. */
async function formsOf(bytes: Uint8Array): Promise<Form[]> {
  const pages = await pdfPages(bytes);
  if (pages.every((page) => page.length === 0))
    throw new CiomsRefusedError({ key: 'imports.cioms.noText', params: {} });
  const forms: Form[] = [];
  let header = new Set<string>();
  for (const pieces of pages) {
    const modes: Mode[] = ['both', 'zh', 'en'];
    const best = modes
      .map((mode) => ({ mode, anchors: anchorsOf(pieces, mode) }))
      .sort((a, b) => b.anchors.length - a.anchors.length)[0]!;
    if (best.anchors.length >= MIN_LABELS) {
      const top = Math.max(...best.anchors.map((a) => a.y));
      // What the page prints above the first box (title, banner, report line) repeats on its continuation pages.
      header = new Set(pieces.filter((p) => p.y > top + 12).map((p) => p.text.trim()));
      const known = header;
      const pageText = (row: string) => known.has(row) || PAGE_LABEL.some((p) => p.test(row));
      forms.push({
        mode: best.mode,
        boxes: boxLines(pieces, best.anchors, best.mode, pageText),
        continued: new Map(),
      });
      continue;
    }
    const form = forms[forms.length - 1];
    if (!form) continue;
    let item: string | null = null;
    const rows: string[] = [];
    let y: number | null = null;
    for (const piece of [...pieces].sort((a, b) => b.y - a.y || a.x - b.x)) {
      if (y !== null && Math.abs(piece.y - y) < 1.5) rows[rows.length - 1] += piece.text;
      else rows.push(piece.text);
      y = piece.y;
    }
    for (const row of rows.map((r) => r.trim())) {
      if (header.has(row) || PAGE_LABEL.some((p) => p.test(row)) || /CIOMS I/.test(row)) continue;
      const heading = CONTINUED.map((p) => p.exec(row)).find(Boolean);
      if (heading) {
        item = heading[1]!;
        continue;
      }
      if (item) form.continued.set(item, [...(form.continued.get(item) ?? []), row]);
    }
  }
  if (forms.length === 0) throw new CiomsRefusedError({ key: 'imports.cioms.notCioms', params: {} });
  return forms;
}

const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/u;

/**
 * Wrapped lines joined back: a line continues the one before when its first word would not have
 * fitted there (the engine's wrapText breaks so), a new one otherwise; an entry (#n) always starts one.
 */
function unwrap(lines: { text: string; width: number }[]): string[] {
  const out: string[] = [];
  let last: { text: string; width: number } | null = null;
  for (const line of lines) {
    const text = line.text;
    if (last && !/^(#\d+ |[☐☒])/.test(text)) {
      const first = CJK.test(text[0] ?? '') ? text[0]! : (text.split(' ')[0] ?? '');
      const joinsCjk = CJK.test(last.text.at(-1) ?? '') || CJK.test(text[0] ?? '');
      if (widthOf(last.text) + (joinsCjk ? 0 : 1) + widthOf(first) > last.width) {
        out[out.length - 1] += (joinsCjk ? '' : ' ') + text;
        last = line;
        continue;
      }
    }
    out.push(text);
    last = line;
  }
  return out;
}

/** A box's logical lines: its own (the continuation reference left out), then its continuation pages'. */
function boxText(form: Form, id: string): string[] {
  const width = ciomsMapping.boxes.find((b) => b.id === id)?.width ?? 128;
  const own = (form.boxes.get(id) ?? [])
    .map((text) => text.trim())
    .filter((text) => text && !REFERENCE.some((p) => p.test(text)));
  const more = form.continued.get(id) ?? [];
  return unwrap([
    ...own.map((text) => ({ text, width })),
    ...more.map((text) => ({ text, width: ciomsMapping.page.continuationWidth })),
  ]);
}

export interface CiomsCase {
  document: Doc;
  senderReportId: string | null;
  worldwideId: string | null;
  /** Values no field could take: `<box> <E2B id>: <value>`. */
  unbound: string[];
}

export interface CiomsFieldProblem extends IntakeProblem {
  box: string;
}

const NULL_FLAVORS = new Map(
  ['NI', 'MSK', 'UNK', 'NA', 'ASKU', 'NASK', 'NINF', 'PINF'].flatMap((code) =>
    (['zh', 'en'] as const).map((lang) => [reportText(lang, `nullFlavor.${code}`), code] as const),
  ),
);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** A date as the form prints it (to the day, perhaps with a time), or a null flavour's words. */
const DATE_PATTERN = `(?:\\d{4}(?:-\\d{2}){0,2}(?: \\d{2}:\\d{2}(?::\\d{2})?)?|${[...NULL_FLAVORS.keys()].map(escape).join('|')})`;

const sectionOfField = (field: IntakeField): string | null =>
  /^\/([^/]+)\/\*\//.exec(field.pointer)?.[1] ?? null;

/** One form into a case document through the template; problems name the box and value. */
function caseOfForm(form: Form, newId: () => string): { document: Doc; problems: CiomsFieldProblem[] } {
  const fields = intakeFields();
  const problems: CiomsFieldProblem[] = [];
  const single = new Map<IntakeField, unknown>();
  // Items by section and number; `each` values go into every item of their section afterwards.
  const items = new Map<string, Map<number, Map<IntakeField, unknown>>>();
  const each: [IntakeField, unknown][] = [];
  const itemOf = (section: string, n: number) => {
    const bySection = items.get(section) ?? new Map<number, Map<IntakeField, unknown>>();
    items.set(section, bySection);
    const item = bySection.get(n) ?? new Map<IntakeField, unknown>();
    bySection.set(n, item);
    return item;
  };
  const put = (box: TemplateBox, e2b: string, text: string, n?: number, section?: string) => {
    const field = fields.get(e2b);
    if (!field || !text.trim()) return;
    // A null flavour printed as its words ("Not asked", "未询问") for a value that is not free text.
    const flavor = field.type === 'text' ? undefined : NULL_FLAVORS.get(text.trim());
    if (flavor) {
      const fieldSection = sectionOfField(field);
      const value = { nullFlavor: flavor };
      if (fieldSection) itemOf(section ?? fieldSection, n ?? 1).set(field, value);
      else single.set(field, value);
      return;
    }
    // A date printed with its time (C.1.4 "2022-06-14 10:10"): the day converted, the time kept.
    const timed = field.type === 'date' ? /^(.*?) (\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim()) : null;
    const converted = convertCell(CIOMS_IMPORT, { field: e2b }, field, timed ? timed[1]! : text.trim());
    if ('problem' in converted) {
      problems.push({ ...converted.problem, box: box.box });
      return;
    }
    if (timed) converted.value = `${String(converted.value)}${timed[2]}${timed[3]}${timed[4] ?? ''}`;
    const fieldSection = sectionOfField(field);
    if (fieldSection && box.each) each.push([field, converted.value]);
    else if (fieldSection) itemOf(section ?? fieldSection, n ?? 1).set(field, converted.value);
    else single.set(field, converted.value);
  };
  for (const box of CIOMS_IMPORT.boxes) {
    const lines = boxText(form, box.box);
    if (box.value) put(box, box.value, lines.join('\n'));
    box.lines?.forEach((e2b, i) => put(box, e2b, lines[i] ?? ''));
    if (box.pattern && box.groups) {
      const pattern = new RegExp(box.pattern.replaceAll('{date}', DATE_PATTERN), 'u');
      const rest: string[] = [];
      for (const line of lines) {
        const match = pattern.exec(line);
        if (!match) {
          rest.push(line);
          continue;
        }
        const numbered = box.groups.indexOf('#');
        const n = numbered >= 0 ? Number(match[numbered + 1]) : 1;
        box.groups.forEach((e2b, i) => {
          if (e2b !== '#') put(box, e2b, match[i + 1] ?? '', n, box.section);
        });
        for (const [e2b, value] of Object.entries(box.set ?? {})) put(box, e2b, value, n, box.section);
      }
      if (box.rest && rest.length) put(box, box.rest, rest.join('\n'));
    }
    for (const check of box.checks ?? []) {
      const label = squash(check.label[form.mode === 'zh' ? 'zh' : 'en']);
      // A ticked line begins with the mark and then (the start of) the check's label.
      const ticked = lines.some((line) => {
        const text = line.trim();
        const rest = squash(text.slice(CHECKED.length));
        return (
          text.startsWith(CHECKED) && rest.length > 0 && (label.startsWith(rest) || rest.startsWith(label))
        );
      });
      if (ticked) put(box, check.field, 'true', 1);
    }
  }
  const document: Doc = {};
  mergeRow(document, single, 0, () => 0, newId);
  // Reactions (items of section E.i or of their own box), then suspect and concomitant drugs, in item order.
  const order = [...items.keys()].sort((a, b) => sectionRank(a) - sectionRank(b));
  let row = 1;
  for (const section of order)
    for (const [, values] of [...items.get(section)!].sort((a, b) => a[0] - b[0])) {
      for (const [field, value] of each) if (sectionOfField(field) === section) values.set(field, value);
      mergeRow(document, values, row++, () => 0, newId);
    }
  return { document, problems };
}

const RANK: Record<string, number> = { reactions: 0, suspect: 1, concomitant: 2 };
const sectionRank = (section: string): number => RANK[section] ?? 3;

/**
 * The cases of a CIOMS PDF, one per form. A value its field cannot take (a code no list has) is left
 * out of the case and listed in `unbound` (box, E2B id, value), as an E2B import lists what it could
 * not place: the comparison screen shows it and the user enters it.
 */
export async function readCiomsPdf(bytes: Uint8Array, newId: () => string): Promise<CiomsCase[]> {
  const forms = await formsOf(bytes);
  return forms.map((form) => {
    const { document, problems } = caseOfForm(form, newId);
    const report = (document.report ?? {}) as Doc;
    const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
    return {
      document,
      senderReportId: text(report.reportCode),
      worldwideId: text(report.reportAllCode),
      unbound: problems.map(
        (problem) =>
          `${problem.box} ${String(problem.params.field ?? '')}: ${String(problem.params.value ?? '')}`,
      ),
    };
  });
}

/**
 * CIOMS I form from a case document: schemas/reports/cioms.json says which fields (by E2B id) fill which
 * box, how wide and tall each box is, which checkboxes tick on which values. This module only lays text
 * into boxes; templates/cioms/cioms.hbs and the renderers (server/src/reports) print it. Text that does
 * not fit its box continues on numbered continuation pages that the box refers to: nothing is cut.
 */
import mapping from '../../../schemas/reports/cioms.json';
import type { Bilingual, Binding, ReportLanguage } from './values';
import {
  formatValue,
  itemsAt,
  joinBilingual,
  pick,
  pointerOf,
  reportText,
  schemaAt,
  valuesAt,
} from './values';
import { wrapText } from './text';

type Where = Record<string, string[]>;

interface LineBlock {
  line: string;
  repeat?: string;
  where?: Where;
  each?: string;
}

interface CheckDefinition {
  label: Bilingual;
  anyTrue?: string;
  anyPresent?: string;
  anyCode?: Where;
  notCode?: Where;
}

interface ChoiceDefinition {
  repeat: string;
  where?: Where;
  from: string;
  options: { label: Bilingual; codes: string[] }[];
}

interface BoxDefinition {
  id: string;
  section: string;
  label: Bilingual;
  width: number;
  lines: number;
  blocks?: LineBlock[];
  checks?: CheckDefinition[];
  choice?: ChoiceDefinition;
}

export interface CiomsMapping {
  page: { formWidth: number; continuationWidth: number; continuationLines: number };
  sections: { id: string; label: Bilingual; rows: string[][] }[];
  boxes: BoxDefinition[];
}

export const ciomsMapping: CiomsMapping = mapping as CiomsMapping;

export interface CiomsLine {
  text: string;
  /** The line refers to a continuation page. */
  reference?: boolean;
  /** A check line, ticked or not (the glyph is part of `text`). */
  checked?: boolean;
}

export interface CiomsBox {
  id: string;
  section: string;
  /** The label as printed: one line per language. */
  label: string[];
  width: number;
  capacity: number;
  lines: CiomsLine[];
  /** Where the rest of the box's text continues. */
  continuedOn?: number;
}

export interface ContinuationLine {
  text: string;
  heading?: boolean;
  item?: string;
}

export interface ContinuationPage {
  number: number;
  lines: ContinuationLine[];
}

export interface CiomsForm {
  lang: ReportLanguage;
  blinded: boolean;
  title: string;
  subtitle: string;
  reportCode: string;
  banner: string;
  /** Each section with its boxes row by row. */
  sections: { id: string; label: string; rows: CiomsBox[][] }[];
  boxes: Record<string, CiomsBox>;
  continuation: ContinuationPage[];
  pageCount: number;
}

export const CHECKED = '☒';
export const UNCHECKED = '☐';

type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'number' }
  | { kind: 'field'; refs: string[]; both: boolean }
  | { kind: 'group'; parts: Segment[] };

const parsed = new Map<string, Segment[]>();

/** Parses a line template: {E2B id}, {A|B}, {A+B}, {#}, [optional part]. */
export function parseLineTemplate(template: string): Segment[] {
  const cached = parsed.get(template);
  if (cached) return cached;
  const top: Segment[] = [];
  let target = top;
  let text = '';
  const flush = (): void => {
    if (text) target.push({ kind: 'text', text });
    text = '';
  };
  for (let i = 0; i < template.length; i++) {
    const char = template[i] as string;
    if (char === '{') {
      const end = template.indexOf('}', i);
      if (end < 0) throw new Error(`Unclosed { in report line template ${template}`);
      flush();
      const inner = template.slice(i + 1, end);
      if (inner === '#') target.push({ kind: 'number' });
      else {
        const both = inner.includes('+');
        const refs = inner.split(both ? '+' : '|');
        for (const ref of refs) pointerOf(ref);
        target.push({ kind: 'field', refs, both });
      }
      i = end;
    } else if (char === '[') {
      if (target !== top) throw new Error(`Nested [ in report line template ${template}`);
      flush();
      const group: Segment = { kind: 'group', parts: [] };
      top.push(group);
      target = group.parts;
    } else if (char === ']') {
      if (target === top) throw new Error(`Unopened ] in report line template ${template}`);
      flush();
      target = top;
    } else text += char;
  }
  if (target !== top) throw new Error(`Unclosed [ in report line template ${template}`);
  flush();
  parsed.set(template, top);
  return top;
}

interface Context {
  document: unknown;
  lang: ReportLanguage;
}

function fieldText(ctx: Context, ref: string, binding: Binding): string {
  const pattern = pointerOf(ref);
  const schema = schemaAt(pattern);
  const seen = new Set<string>();
  for (const { value } of valuesAt(ctx.document, pattern, binding)) {
    const text = formatValue(value, schema, ctx.lang);
    if (text) seen.add(text);
  }
  return [...seen].join(', ');
}

function renderSegments(
  ctx: Context,
  segments: Segment[],
  binding: Binding,
  n: number,
): { text: string; filled: boolean } {
  let text = '';
  let filled = false;
  for (const segment of segments) {
    if (segment.kind === 'text') text += segment.text;
    else if (segment.kind === 'number') text += String(n);
    else if (segment.kind === 'field') {
      const values = segment.refs.map((ref) => fieldText(ctx, ref, binding)).filter(Boolean);
      const value =
        segment.both && ctx.lang === 'both'
          ? [...new Set(values)].reduce((a, b) => (a ? joinBilingual(a, b) : b), '')
          : values[0];
      if (value) {
        text += value;
        filled = true;
      }
    } else {
      const inner = renderSegments(ctx, segment.parts, binding, n);
      if (inner.filled) {
        text += inner.text;
        filled = true;
      }
    }
  }
  return { text, filled };
}

function rawStrings(ctx: Context, ref: string, binding: Binding): string[] {
  return valuesAt(ctx.document, pointerOf(ref), binding).map(({ value }) => String(value));
}

function matches(ctx: Context, where: Where | undefined, binding: Binding): boolean {
  if (!where) return true;
  return Object.entries(where).every(([ref, codes]) =>
    rawStrings(ctx, ref, binding).some((v) => codes.includes(v)),
  );
}

/** The items of a repeat, each with its binding and its number among the items kept. */
function repeatItems(ctx: Context, repeat: string, where: Where | undefined, binding: Binding): Binding[] {
  const pattern = pointerOf(repeat);
  const out: Binding[] = [];
  for (const item of itemsAt(ctx.document, pattern, binding)) {
    const inner = new Map(binding);
    inner.set(`${pattern}/*`, item);
    if (matches(ctx, where, inner)) out.push(inner);
  }
  return out;
}

function blockLines(ctx: Context, block: LineBlock): string[] {
  const segments = parseLineTemplate(block.line);
  const line = (binding: Binding, n: number): string[] => {
    const { text, filled } = renderSegments(ctx, segments, binding, n);
    return filled ? [text.trim()] : [];
  };
  if (!block.repeat) return line(new Map(), 1);
  const out: string[] = [];
  repeatItems(ctx, block.repeat, block.where, new Map()).forEach((binding, i) => {
    if (!block.each) out.push(...line(binding, i + 1));
    else
      for (const inner of repeatItems(ctx, block.each, undefined, binding)) out.push(...line(inner, i + 1));
  });
  return out;
}

function checkTicked(ctx: Context, check: CheckDefinition): boolean {
  const none = new Map<string, string>();
  if (check.anyTrue)
    return valuesAt(ctx.document, pointerOf(check.anyTrue)).some(({ value }) => value === true);
  if (check.anyPresent)
    return valuesAt(ctx.document, pointerOf(check.anyPresent)).some(
      ({ value }) => formatValue(value, undefined, 'en') !== '',
    );
  if (check.anyCode) return matches(ctx, check.anyCode, none);
  if (check.notCode)
    return !Object.entries(check.notCode).some(([ref, codes]) =>
      rawStrings(ctx, ref, none).some((v) => codes.includes(v)),
    );
  return false;
}

const tick = (checked: boolean): string => (checked ? CHECKED : UNCHECKED);

function boxContent(ctx: Context, box: BoxDefinition): CiomsLine[] {
  const out: CiomsLine[] = [];
  const wrapped = (text: string, extra: Partial<CiomsLine> = {}): void => {
    for (const line of wrapText(text, box.width)) out.push({ text: line, ...extra });
  };
  // A line equal to the one before it (C.1.8.1 repeating C.1.1) says nothing new.
  let previous = '';
  for (const block of box.blocks ?? [])
    for (const line of blockLines(ctx, block)) {
      if (line !== previous) wrapped(line);
      previous = line;
    }
  for (const check of box.checks ?? []) {
    const checked = checkTicked(ctx, check);
    wrapped(`${tick(checked)} ${pick(check.label, ctx.lang)}`, { checked });
  }
  if (box.choice) {
    const choice = box.choice;
    repeatItems(ctx, choice.repeat, choice.where, new Map()).forEach((binding, i) => {
      const values = rawStrings(ctx, choice.from, binding);
      const options = choice.options.map(
        (o) => `${tick(o.codes.some((c) => values.includes(c)))} ${pick(o.label, ctx.lang)}`,
      );
      wrapped(`#${i + 1} ${options.join('  ')}`);
    });
  }
  return out;
}

/** Continuation pages filled in box order, a box's overflow starting under a heading naming its item. */
class Continuation {
  readonly pages: ContinuationPage[] = [];
  constructor(
    private readonly width: number,
    private readonly capacity: number,
    private readonly lang: ReportLanguage,
  ) {}

  private get current(): ContinuationPage | undefined {
    return this.pages[this.pages.length - 1];
  }

  private heading(key: string, item: string): ContinuationLine[] {
    return wrapText(reportText(this.lang, key, { item, from: 1 }), this.width).map((text) => ({
      text,
      heading: true,
      item,
    }));
  }

  /** The page an item's text would start on. */
  startPage(item: string): number {
    const need = this.heading('cioms.continuedHeading', item).length + 1;
    const page = this.current;
    if (page && page.lines.length + need <= this.capacity) return page.number;
    return (page?.number ?? 1) + 1;
  }

  add(item: string, lines: string[]): void {
    const start = this.startPage(item);
    if (this.current?.number !== start) this.pages.push({ number: start, lines: [] });
    const current = (): ContinuationPage => this.current as ContinuationPage;
    if (current().lines.length > 0) current().lines.push({ text: '' });
    current().lines.push(...this.heading('cioms.continuedHeading', item));
    for (const text of lines.flatMap((l) => wrapText(l, this.width))) {
      if (current().lines.length >= this.capacity) {
        this.pages.push({ number: current().number + 1, lines: this.heading('cioms.continuedAgain', item) });
      }
      current().lines.push({ text, item });
    }
  }
}

/** Lays a case document into the CIOMS I form (the document already blinded when a blinded form is wanted). */
export function buildCiomsForm(
  document: Record<string, unknown>,
  options: { lang: ReportLanguage; blinded: boolean; map?: CiomsMapping },
): CiomsForm {
  const map = options.map ?? ciomsMapping;
  const ctx: Context = { document, lang: options.lang };
  const continuation = new Continuation(map.page.continuationWidth, map.page.continuationLines, options.lang);
  const boxes: Record<string, CiomsBox> = {};
  for (const definition of map.boxes) {
    const content = boxContent(ctx, definition);
    const label =
      options.lang === 'both' ? [definition.label.zh, definition.label.en] : [definition.label[options.lang]];
    const box: CiomsBox = {
      id: definition.id,
      section: definition.section,
      label,
      width: definition.width,
      capacity: definition.lines,
      lines: content,
    };
    if (content.length > definition.lines) {
      const page = continuation.startPage(definition.id);
      let reference = wrapText(
        reportText(options.lang, 'cioms.continuationRef', { page, item: definition.id }),
        definition.width,
      );
      if (reference.length > definition.lines - 1)
        reference = wrapText(
          reportText(options.lang, 'cioms.continuationRefShort', { page }),
          definition.width,
        );
      const kept = Math.max(0, definition.lines - reference.length);
      // The rest goes as the box's own wrapped lines so the continuation reads on where the box stops.
      continuation.add(
        definition.id,
        content.slice(kept).map((l) => l.text),
      );
      box.lines = [...content.slice(0, kept), ...reference.map((text) => ({ text, reference: true }))];
      box.continuedOn = page;
    }
    boxes[definition.id] = box;
  }
  const reportCode = fieldText(ctx, 'C.1.1', new Map());
  return {
    lang: options.lang,
    blinded: options.blinded,
    title: reportText(options.lang, 'cioms.title'),
    subtitle: reportText(options.lang, 'cioms.subtitle'),
    reportCode,
    banner: reportText(options.lang, options.blinded ? 'blindedBanner' : 'unblindedBanner'),
    sections: map.sections.map((s) => ({
      id: s.id,
      label: pick(s.label, options.lang),
      rows: s.rows.map((row) => row.map((id) => boxes[id] as CiomsBox)),
    })),
    boxes,
    continuation: continuation.pages,
    pageCount: 1 + continuation.pages.length,
  };
}

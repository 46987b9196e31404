/**
 * Word (.docx) output through the `docx` library: the CIOMS I form as tables, box by box in the rows the
 * mapping declares, then its continuation pages each after a page break; the case report as one table
 * per tab group.
 */
import {
  AlignmentType,
  BorderStyle,
  Document,
  Packer,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  convertMillimetersToTwip,
} from 'docx';
import type { ParagraphChild } from 'docx';
import { reportText } from '@pv/engine';
import type { CaseReport, CiomsBox, CiomsForm } from '@pv/engine';

const MONO = {
  ascii: 'Noto Sans Mono CJK SC',
  hAnsi: 'Noto Sans Mono CJK SC',
  eastAsia: 'Noto Sans Mono CJK SC',
};
const SANS = { ascii: 'Noto Sans', hAnsi: 'Noto Sans', eastAsia: 'Noto Sans CJK SC' };
const PAGE_WIDTH_MM = 190;
const border = { style: BorderStyle.SINGLE, size: 4, color: '000000' };
const borders = { top: border, bottom: border, left: border, right: border };

const text = (
  value: string,
  options: { bold?: boolean; size?: number; mono?: boolean; italics?: boolean } = {},
): TextRun =>
  new TextRun({
    text: value,
    bold: options.bold ?? false,
    italics: options.italics ?? false,
    size: options.size ?? 16,
    font: options.mono ? MONO : SANS,
  });

const para = (
  children: ParagraphChild[],
  options: { pageBreakBefore?: boolean; align?: 'right' } = {},
): Paragraph =>
  new Paragraph({
    children,
    pageBreakBefore: options.pageBreakBefore ?? false,
    ...(options.align === 'right' ? { alignment: AlignmentType.RIGHT } : {}),
    spacing: { before: 0, after: 0 },
  });

function boxCell(box: CiomsBox, widthMm: number): TableCell {
  const children = [
    ...box.label.map((l) => para([text(l, { bold: true, size: 11 })])),
    ...box.lines.map((line) =>
      para([text(line.text, { mono: true, size: 14, italics: line.reference === true })]),
    ),
  ];
  if (box.lines.length === 0) children.push(para([text('')]));
  return new TableCell({
    children,
    borders,
    width: { size: convertMillimetersToTwip(widthMm), type: WidthType.DXA },
  });
}

function rowTable(boxes: CiomsBox[]): Table {
  const cells = boxes.reduce((sum, b) => sum + b.width, 0);
  return new Table({
    width: { size: convertMillimetersToTwip(PAGE_WIDTH_MM), type: WidthType.DXA },
    rows: [new TableRow({ children: boxes.map((b) => boxCell(b, (PAGE_WIDTH_MM * b.width) / cells)) })],
  });
}

function sectionTitle(label: string): Paragraph {
  return new Paragraph({
    children: [text(label, { bold: true, size: 16 })],
    shading: { type: ShadingType.CLEAR, fill: 'E6E6E6', color: 'auto' },
    spacing: { before: 80, after: 0 },
  });
}

function header(title: string, sub: string | null, form: CiomsForm, pageBreakBefore: boolean): Paragraph[] {
  return [
    para([text(title, { bold: true, size: 24 })], { pageBreakBefore }),
    ...(sub ? [para([text(sub, { bold: true, size: 16 })])] : []),
    para([text(form.banner, { bold: true, size: 14 })], { align: 'right' }),
    para([text(reportText(form.lang, 'cioms.reportCode', { code: form.reportCode }), { size: 14 })], {
      align: 'right',
    }),
  ];
}

const pageLabel = (form: CiomsForm, page: number): Paragraph =>
  para([text(reportText(form.lang, 'cioms.pageOf', { page, pages: form.pageCount }), { size: 12 })], {
    align: 'right',
  });

function document(children: (Paragraph | Table)[]): Document {
  const margin = convertMillimetersToTwip(10);
  return new Document({
    sections: [
      {
        properties: {
          page: {
            size: { width: convertMillimetersToTwip(210), height: convertMillimetersToTwip(297) },
            margin: { top: margin, bottom: margin, left: margin, right: margin },
          },
        },
        children,
      },
    ],
  });
}

export async function ciomsDocx(form: CiomsForm): Promise<Uint8Array> {
  const children: (Paragraph | Table)[] = [...header(form.title, form.subtitle, form, false)];
  for (const section of form.sections) {
    children.push(sectionTitle(section.label));
    for (const row of section.rows) children.push(rowTable(row));
  }
  children.push(pageLabel(form, 1));
  for (const page of form.continuation) {
    children.push(
      ...header(reportText(form.lang, 'cioms.continuationTitle', { page: page.number }), null, form, true),
    );
    for (const line of page.lines)
      children.push(para([text(line.text, { mono: true, size: 18, bold: line.heading === true })]));
    children.push(pageLabel(form, page.number));
  }
  return new Uint8Array(await Packer.toBuffer(document(children)));
}

function fieldTable(report: CaseReport, rows: { label: string; e2b: string; value: string }[]): Table {
  const widths = [0.38, 0.14, 0.48].map((f) => convertMillimetersToTwip(PAGE_WIDTH_MM * f));
  const cell = (value: string, width: number, bold = false): TableCell =>
    new TableCell({
      borders,
      width: { size: width, type: WidthType.DXA },
      // A value's own line breaks stay line breaks.
      children: value.split('\n').map((line) => para([text(line, { size: 16, bold })])),
    });
  const headerRow = new TableRow({
    tableHeader: true,
    children: (['caseReport.field', 'caseReport.e2b', 'caseReport.value'] as const).map((key, i) =>
      cell(reportText(report.lang, key), widths[i] as number, true),
    ),
  });
  return new Table({
    width: { size: convertMillimetersToTwip(PAGE_WIDTH_MM), type: WidthType.DXA },
    rows: [
      headerRow,
      ...rows.map(
        (row) =>
          new TableRow({
            children: [
              cell(row.label, widths[0] as number),
              cell(row.e2b, widths[1] as number),
              cell(row.value, widths[2] as number),
            ],
          }),
      ),
    ],
  });
}

export async function caseReportDocx(report: CaseReport): Promise<Uint8Array> {
  const children: (Paragraph | Table)[] = [
    para([text(report.title, { bold: true, size: 28 })]),
    para([text(report.banner, { bold: true, size: 16 })], { align: 'right' }),
    para([text(reportText(report.lang, 'cioms.reportCode', { code: report.reportCode }), { size: 16 })], {
      align: 'right',
    }),
  ];
  if (report.tabs.length === 0)
    children.push(para([text(reportText(report.lang, 'caseReport.empty'), { italics: true })]));
  for (const tab of report.tabs) {
    children.push(
      new Paragraph({
        children: [text(tab.label, { bold: true, size: 24 })],
        spacing: { before: 240, after: 60 },
      }),
    );
    for (const group of tab.groups) {
      children.push(
        new Paragraph({
          children: [text(group.title, { bold: true, size: 20 })],
          spacing: { before: 120, after: 40 },
        }),
      );
      for (const item of group.items) {
        if (item.heading) children.push(para([text(item.heading, { bold: true, size: 17 })]));
        children.push(fieldTable(report, item.rows));
      }
    }
  }
  return new Uint8Array(await Packer.toBuffer(document(children)));
}

/**
 * A query letter's document: the view in the letter's language (zh, en, or both as "zh / en"), its
 * HTML from templates/query-letters/letter.hbs printed to PDF by the reports module's Chromium
 * printer, and its Word version through the `docx` library from the same view.
 */
import {
  BorderStyle,
  Document,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import { printPdf, templateHtml } from '../reports';
import texts from '../../../templates/query-letters/texts.json';
import type { QueryLetter } from './model';

export type LetterLanguage = QueryLetter['lang'];
type Text = { zh: string; en: string };
type TextKey = Exclude<keyof typeof texts, '$comment'>;

/** A text as the letter's language shows it: both languages in a bilingual letter. */
export const inLanguage = (lang: LetterLanguage, text: Text): string =>
  lang === 'bilingual' ? `${text.zh} / ${text.en}` : text[lang];

/** What the template and the Word builder show, every text already in the letter's language. */
export function letterView(letter: QueryLetter) {
  const t = Object.fromEntries(
    (Object.keys(texts) as (keyof typeof texts)[])
      .filter((key): key is TextKey => key !== '$comment')
      .map((key) => [key, inLanguage(letter.lang, texts[key] as Text)]),
  ) as Record<TextKey, string>;
  return {
    t,
    htmlLang: letter.lang === 'en' ? 'en' : 'zh-CN',
    number: letter.number,
    reportCode: letter.reportCode,
    date: letter.draftedOn,
    recipient: letter.recipient,
    dueDate: letter.dueDate,
    queries: letter.queries.map((q) => ({
      number: q.number,
      fields: inLanguage(letter.lang, q.fields),
      values: q.values,
      question: q.question,
    })),
  };
}

export const letterHtml = (letter: QueryLetter): string =>
  templateHtml('query-letters/letter.hbs', letterView(letter));

export const letterPdf = (letter: QueryLetter): Promise<Uint8Array> => printPdf(letterHtml(letter));

const FONT = { ascii: 'Noto Sans', hAnsi: 'Noto Sans', eastAsia: 'Noto Sans CJK SC' };
const run = (text: string, bold = false, size = 20) => new TextRun({ text, bold, size, font: FONT });
const line = (text: string, bold = false, size = 20) => new Paragraph({ children: [run(text, bold, size)] });
const border = { style: BorderStyle.SINGLE, size: 4, color: '555555' };
const cell = (text: string, bold: boolean, width: number) =>
  new TableCell({
    width: { size: width, type: WidthType.PERCENTAGE },
    borders: { top: border, bottom: border, left: border, right: border },
    children: [line(text, bold)],
  });

export async function letterDocx(letter: QueryLetter): Promise<Uint8Array> {
  const view = letterView(letter);
  const { t } = view;
  const children: (Paragraph | Table)[] = [
    line(t.title, true, 30),
    line(`${t.number}: ${view.number}`),
    line(`${t.reportCode}: ${view.reportCode}`),
    line(`${t.date}: ${view.date}`),
    line(`${t.to}: ${view.recipient}`),
    line(`${t.dueDate}: ${view.dueDate}`),
    line(t.intro),
  ];
  for (const q of view.queries) {
    const rows: [string, string][] = [
      [t.queryNumber, q.number],
      [t.field, q.fields],
      [t.value, q.values],
      [t.question, q.question],
      [t.answer, ''],
    ];
    children.push(
      new Table({
        width: { size: 100, type: WidthType.PERCENTAGE },
        rows: rows.map(
          ([label, value]) => new TableRow({ children: [cell(label, true, 28), cell(value, false, 72)] }),
        ),
      }),
      line(''),
    );
  }
  children.push(line(t.closing), line(t.from));
  const document = new Document({ sections: [{ children }] });
  return new Uint8Array(await Packer.toBuffer(document));
}

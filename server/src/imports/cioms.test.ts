/**
 * CIOMS I import (issue 21 item 3): the forms this product prints for the shared E2B samples (every
 * sample's cases in one PDF per language, as the CIOMS zip prints them) read back into cases whose
 * CIOMS-visible fields equal the originals' (the form laid out again from the imported case shows
 * the same boxes); hostile files refused with the reason: no PDF, encrypted, no text (a scan), no
 * CIOMS form, a zip bomb.
 */
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCiomsForm, isInterchangeError, listZipEntries } from '@pv/engine';
import type { ReportLanguage } from '@pv/engine';
import { sampleCases } from '../interchange/testing';
import { ciomsHtmlMany, closePrinter, printPdf } from '../reports';
import { CiomsRefusedError, readCiomsPdf } from './cioms-parse';

type Doc = Record<string, unknown>;

let ids = 0;
const newId = () => `r${ids++}`;

/** The boxes the import reads, as the form lays them out: whole lines, or the entries' leading names. */
function visible(doc: Doc, lang: ReportLanguage): Record<string, string[]> {
  const form = buildCiomsForm(doc, { lang, blinded: false });
  const lines = (id: string) => form.boxes[id]!.lines.map((l) => l.text);
  // Unwrapped entries (#n ...) of a box: wrapping depends on the text only, so equal texts wrap alike.
  const entries = (id: string) => lines(id).filter((l) => /^#\d+ /.test(l));
  const names = (id: string) => entries(id).map((l) => l.split(/;| \(/)[0]!);
  return {
    '1': lines('1'),
    '1a': lines('1a'),
    '2': lines('2'),
    '2a': lines('2a'),
    '3': lines('3'),
    '4-6': lines('4-6'),
    '7+13 reactions': entries('7+13'),
    '8-12': lines('8-12'),
    '14 names': names('14'),
    '22 names': names('22'),
    '24b': lines('24b').slice(0, 1),
    '24c': lines('24c'),
    '25': lines('25'),
  };
}

afterAll(async () => {
  await closePrinter();
});

describe('CIOMS I PDF import', () => {
  const cases = sampleCases();

  it.each(['en', 'zh'] as const)(
    'reads back every form printed for the shared samples (%s) with the CIOMS-visible fields of the original',
    { timeout: 120_000 },
    async (lang) => {
      expect(cases.length).toBeGreaterThan(5);
      const pdf = await printPdf(
        ciomsHtmlMany(cases.map(({ doc }) => buildCiomsForm(doc, { lang, blinded: false }))),
      );
      // As the parse job reads it from the file store: a Node Buffer.
      const read = await readCiomsPdf(Buffer.from(pdf), newId);
      expect(read).toHaveLength(cases.length);
      read.forEach((imported, i) => {
        const { name, doc } = cases[i]!;
        // A value no field takes (a country code no list has) is listed, not imported: its box differs.
        const skipped = new Set(imported.unbound.map((u) => u.split(' ')[0]!));
        const shown = (d: Doc) =>
          Object.fromEntries(
            Object.entries(visible(d, lang)).filter(([box]) => !skipped.has(box.split(' ')[0]!)),
          );
        expect({ name, boxes: shown(imported.document) }).toEqual({ name, boxes: shown(doc) });
        expect(imported.senderReportId).toBe((doc.report as Doc | undefined)?.reportCode ?? null);
      });
    },
  );

  const refused = async (bytes: Uint8Array) => {
    try {
      await readCiomsPdf(bytes, newId);
    } catch (error) {
      if (error instanceof CiomsRefusedError) return error.refusal.key;
      throw error;
    }
    return null;
  };

  it('refuses a file that is no PDF, an encrypted PDF, a scan without text and a PDF that is no CIOMS form', async () => {
    expect(await refused(new TextEncoder().encode('<?xml version="1.0"?><not-a-pdf/>'))).toBe(
      'imports.cioms.notPdf',
    );
    const scan = await PDFDocument.create();
    scan.addPage([595, 842]);
    expect(await refused(await scan.save())).toBe('imports.cioms.noText');
    const letter = await PDFDocument.create();
    letter
      .addPage([595, 842])
      .drawText('Dear colleague, please find the listing attached.', { x: 50, y: 700 });
    expect(await refused(await letter.save())).toBe('imports.cioms.notCioms');
    // The standard security handler with passwords nobody gave: pdf.js asks for one.
    const locked = await PDFDocument.create();
    locked.addPage([595, 842]).drawText('secret', { x: 50, y: 700 });
    locked.context.trailerInfo.Encrypt = locked.context.obj({
      Filter: PDFName.of('Standard'),
      V: 1,
      R: 2,
      O: PDFString.of('0123456789abcdef0123456789abcdef'),
      U: PDFString.of('fedcba9876543210fedcba9876543210'),
      P: -4,
    });
    locked.context.trailerInfo.ID = locked.context.obj([PDFString.of('id'), PDFString.of('id')]);
    expect(await refused(await locked.save({ useObjectStreams: false }))).toBe('imports.cioms.encrypted');
  });

  it('refuses a zip bomb of PDFs from its directory, before inflating it', () => {
    const bomb = zipSync({ 'forms/a.pdf': new Uint8Array(8 * 1024 * 1024) }, { level: 9 });
    let key = '';
    try {
      listZipEntries(bomb, { maxRatio: 100 }, { extension: /\.pdf$/i, noneKey: 'zip.noPdf' });
    } catch (error) {
      if (isInterchangeError(error)) key = error.key;
    }
    expect(key).toBe('interchange.zip.ratio');
    const noPdf = zipSync({ 'case.xml': new TextEncoder().encode('<x/>') });
    expect(() => listZipEntries(noPdf, {}, { extension: /\.pdf$/i, noneKey: 'zip.noPdf' })).toThrow(
      /zip\.noPdf/,
    );
  });
});

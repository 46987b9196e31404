/**
 * CIOMS I from every shared E2B sample (imported through the interchange module): the printed PDF, read
 * back with pdfjs-dist, holds each value in the box that should hold it or on the continuation page the
 * box refers to; the Word file, read back with mammoth, holds the same. Nothing is cut, Chinese prints
 * with embedded fonts covering every character, a blinded form shows no treatment assignment.
 */
import mammoth from 'mammoth';
import { afterAll, describe, expect, it } from 'vitest';
import { blindCase, buildCiomsForm, ciomsMapping, codelists } from '@pv/engine';
import type { CiomsForm, ReportLanguage } from '@pv/engine';
import { sampleCases } from '../interchange/testing';
import { ciomsDocx } from './docx';
import { ciomsHtml } from './html';
import { closePrinter, printPdf } from './printer';
import { readPdf, squash } from './testing';

type Doc = Record<string, unknown> & {
  patient?: Record<string, unknown>;
  reactions?: Record<string, unknown>[];
  drugs?: Record<string, unknown>[];
  report?: Record<string, unknown>;
  narrative?: Record<string, unknown>;
  reporters?: Record<string, unknown>[];
};

/** Box ids in print order (the rows of the mapping, section by section). */
const ORDER = ciomsMapping.sections.flatMap((s) => s.rows.flat());
const labelOf = (id: string, lang: ReportLanguage): string => {
  const label = ciomsMapping.boxes.find((b) => b.id === id)?.label;
  if (!label) throw new Error(id);
  return lang === 'both' ? label.zh + label.en : label[lang];
};

/** The text of each box on the form page and, per item, of the continuation pages (page header and footer left out). */
function boxes(pages: string[], lang: ReportLanguage, code: string): Map<string, string> {
  const text = squash(pages[0] ?? '');
  const starts: { id: string; at: number; end: number }[] = [];
  let from = 0;
  for (const id of ORDER) {
    const label = squash(labelOf(id, lang));
    const at = text.indexOf(label, from);
    expect(at, `label of box ${id}`).toBeGreaterThanOrEqual(0);
    starts.push({ id, at, end: at + label.length });
    from = at + label.length;
  }
  const out = new Map<string, string>();
  starts.forEach((s, i) => {
    const next = starts[i + 1]?.at ?? text.length;
    const own = text
      .slice(s.end, next)
      .replace(/(seecontinuationpage\d+,item\S+|cont\.p\.\d+)$/, '')
      .replace(/(见续页\d+，第\S+项|续页\d+)(\/)?$/, '');
    out.set(s.id, own);
  });
  const heading = /Item(\S+?)\(continued(?:frompage\d+)?\)|第(\S+?)项（(?:接第\d+页|续)）/g;
  for (const page of pages.slice(1)) {
    let body = squash(page).replace(/(Page\d+of\d+|第\d+页，共\d+页)$/, '');
    for (const footer of [squash(`Report ${code}`), squash(`报告 ${code}`)])
      if (body.endsWith(footer)) body = body.slice(0, -footer.length);
    const marks = [...body.matchAll(heading)];
    marks.forEach((m, i) => {
      const id = (m[1] ?? m[2]) as string;
      const part = body.slice((m.index ?? 0) + m[0].length, marks[i + 1]?.index ?? body.length);
      out.set(id, (out.get(id) ?? '') + part);
    });
  }
  return out;
}

const e2bDate = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4})(\d{2})?(\d{2})?/.exec(value);
  return m ? [m[1], m[2], m[3]].filter(Boolean).join('-') : null;
};
const codeName = (list: string, code: unknown): string | null =>
  typeof code === 'string' ? (codelists[list]?.values.find((v) => v.code === code)?.en ?? code) : null;
const str = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;

/** What the issue says the form must show, box by box, read from the case without the engine's mapping. */
function expectations(doc: Doc): { box: string; value: string }[] {
  const out: { box: string; value: string }[] = [];
  const add = (box: string, value: string | null): void => {
    if (value) out.push({ box, value });
  };
  const patient = doc.patient ?? {};
  add('1', str(patient['patientsName']));
  const reactions = doc.reactions ?? [];
  const country =
    reactions.map((r) => r['reactionCountry']).find(Boolean) ?? doc.reporters?.[0]?.['reporterCountry'];
  add('1a', codeName('country', country));
  add('2', e2bDate(patient['birthday']));
  add('2a', str(patient['age']));
  add('3', codeName('sex', patient['gender']));
  for (const r of reactions) {
    add('7+13', str(r['reactionNative']) ?? str(r['reactionTranslation']));
    add('4-6', e2bDate(r['startDate']));
  }
  const drugs = doc.drugs ?? [];
  for (const d of drugs) {
    const role = d['drugCharacterisation'];
    const dosages = (d['dosages'] as Record<string, unknown>[] | undefined) ?? [];
    if (role === '1' || role === '3') {
      add('14', str(d['drugName']));
      for (const dose of dosages) {
        add('15', str(dose['dose']));
        add('16', str(dose['route']) ?? codeName('route', dose['routeTermId']));
        add('18', e2bDate(dose['startDate']));
        add('18', e2bDate(dose['endDate']));
      }
      for (const ind of (d['indications'] as Record<string, unknown>[] | undefined) ?? [])
        add('17', str(ind['indicationText']));
    } else if (role === '2') add('22', str(d['drugName']));
  }
  add('24b', str(doc.report?.['reportCode']));
  add('24c', e2bDate(doc.report?.['reportDateFirst']));
  return out;
}

const SERIOUSNESS: [string, string][] = [
  ['isResultInDeath', 'PATIENT DIED'],
  ['isCauseInHospital', 'INVOLVED OR PROLONGED INPATIENT HOSPITALISATION'],
  ['isDisability', 'INVOLVED PERSISTENCE OR SIGNIFICANT DISABILITY OR INCAPACITY'],
  ['isThreadToLife', 'LIFE THREATENING'],
  ['isBirthDefect', 'CONGENITAL ANOMALY / BIRTH DEFECT'],
  ['isOtherMedicalEvents', 'OTHER MEDICALLY IMPORTANT CONDITION'],
];

async function printed(
  doc: Doc,
  lang: ReportLanguage,
  blinded = false,
): Promise<{ form: CiomsForm; pages: string[] }> {
  const form = buildCiomsForm(blinded ? blindCase(doc) : doc, { lang, blinded });
  const pdf = await readPdf(await printPdf(ciomsHtml(form)));
  return { form, pages: pdf.pages };
}

function checkForm(doc: Doc, pages: string[], lang: ReportLanguage): void {
  const box = boxes(pages, lang, String(doc.report?.['reportCode'] ?? ''));
  for (const { box: id, value } of expectations(doc))
    expect(box.get(id), `box ${id} holds ${value}`).toContain(squash(value));
  if (lang === 'en') {
    const checks = box.get('8-12') ?? '';
    for (const [field, label] of SERIOUSNESS) {
      const ticked = (doc.reactions ?? []).some((r) => r[field] === true);
      expect(checks, `${label} ${ticked ? 'ticked' : 'not ticked'}`).toContain(
        squash(`${ticked ? '☒' : '☐'} ${label}`),
      );
    }
  }
}

afterAll(closePrinter);

describe('CIOMS I of the shared E2B samples', () => {
  const cases = sampleCases<Doc>();

  it('imports a case from every ICSR sample', () => {
    expect(cases.length).toBeGreaterThanOrEqual(12);
  });

  it.each(cases.map((c) => [c.name, c.doc] as const))(
    '%s: every value in its box or continuation page, the PDF as many pages as laid out',
    async (_name, doc) => {
      const { form, pages } = await printed(doc, 'en');
      expect(pages.length).toBe(form.pageCount);
      checkForm(doc, pages, 'en');
    },
    60_000,
  );

  it('bilingual mode prints both labels and the values', async () => {
    const doc = cases[0]?.doc as Doc;
    const { form, pages } = await printed(doc, 'both');
    expect(pages.length).toBe(form.pageCount);
    checkForm(doc, pages, 'both');
    expect(squash(pages[0] ?? '')).toContain(squash('男 / Male'));
  }, 60_000);

  it('the Word file holds the same values in the same boxes', async () => {
    for (const { doc } of cases) {
      const form = buildCiomsForm(doc, { lang: 'en', blinded: false });
      const { value } = await mammoth.extractRawText({ buffer: Buffer.from(await ciomsDocx(form)) });
      checkForm(doc, value.split(/CIOMS I continuation page \d+/), 'en');
    }
  }, 60_000);
});

const base = (): Doc => structuredClone(sampleCases<Doc>()[0]?.doc as Doc);

describe('nothing is cut', () => {
  it('a 20,000-character narrative and 30 suspect drugs come out whole, on numbered continuation pages', async () => {
    const doc = base();
    const words: string[] = [];
    for (let i = 0; words.join(' ').length < 20_000; i++) words.push(`word${i}${i % 7 === 0 ? ',' : ''}`);
    const narrative = words.join(' ').slice(0, 20_000);
    expect(narrative.length).toBe(20_000);
    doc.narrative = { ...doc.narrative, caseNarrative: narrative };
    doc.drugs = Array.from({ length: 30 }, (_, i) => ({
      drugCharacterisation: '1',
      drugName: `Trialdrug-${String(i + 1).padStart(2, '0')}`,
      dosages: [{ dose: 100 + i, doseUnit: 'mg', route: 'Oral', startDate: '20240101', endDate: '20240201' }],
      indications: [{ indicationText: `Indication ${i + 1}` }],
    }));
    const { form, pages } = await printed(doc, 'en');
    expect(form.continuation.length).toBeGreaterThan(3);
    expect(pages.length).toBe(form.pageCount);
    const box = boxes(pages, 'en', String(doc.report?.['reportCode'] ?? ''));
    expect(box.get('7+13')).toContain(squash(narrative));
    for (let i = 1; i <= 30; i++) {
      const n = String(i).padStart(2, '0');
      expect(box.get('14')).toContain(squash(`#${i} Trialdrug-${n}`));
      expect(box.get('15')).toContain(squash(`#${i} ${99 + i}`));
      expect(box.get('17')).toContain(squash(`#${i} Indication ${i}`));
    }
    expect(squash(pages[0] ?? '')).toMatch(/seecontinuationpage\d+,item14/);
    // Each continuation page names itself with the number the form refers to.
    const page14 = form.boxes['14']?.continuedOn as number;
    expect(squash(pages[page14 - 1] ?? '')).toContain(squash(`CIOMS I continuation page ${page14}`));
    expect(squash(pages[page14 - 1] ?? '')).toContain('Item14(continuedfrompage1)');
  }, 120_000);
});

describe('Chinese', () => {
  it('prints Chinese as Chinese: embedded fonts map a real glyph to every character used', async () => {
    const doc = base();
    const narrative =
      '患者于2024年3月1日开始口服研究药物，3天后出现全身红色斑丘疹，伴瘙痒、发热（体温38.5℃）。停药并给予氯雷他定治疗后，皮疹于一周内消退。鑫淼犇骉龘䶮';
    doc.patient = { ...doc.patient, patientsName: '张三' };
    doc.narrative = { ...doc.narrative, caseNarrative: narrative };
    doc.reactions = (doc.reactions ?? []).map((r, i) => ({ ...r, reactionNative: i ? '发热' : '皮疹' }));
    const form = buildCiomsForm(doc, { lang: 'zh', blinded: false });
    const pdf = await readPdf(await printPdf(ciomsHtml(form)));
    const text = pdf.pages.join('\n');
    expect(text).not.toContain('\uFFFD');
    const box = boxes(pdf.pages, 'zh', String(doc.report?.['reportCode'] ?? ''));
    expect(box.get('1')).toContain('张三');
    expect(box.get('7+13')).toContain(squash(narrative));
    expect(box.get('7+13')).toContain('皮疹');
    expect(box.get('3')).toContain('男');
    for (const font of pdf.fonts) expect(font.embedded, font.name).toBe(true);
    const covered = new Set(pdf.fonts.flatMap((f) => [...f.chars]));
    const used = new Set([...squash(text)]);
    const missing = [...used].filter((c) => !covered.has(c));
    expect(missing).toEqual([]);
    for (const c of squash(narrative)) expect(used.has(c), c).toBe(true);
  }, 60_000);
});

describe('blinded', () => {
  it('a blinded CIOMS of an unblinded case shows no treatment assignment', async () => {
    const doc = base();
    doc.drugs = [
      {
        isClinicalDrug: true,
        isBlind: false,
        drugCharacterisation: '1',
        drugName: 'Activumab 200 mg arm',
        genericName: 'activumab',
        substances: [{ substanceName: 'activumab', strength: 200, strengthUnit: 'mg' }],
        dosages: [
          {
            dose: 200,
            doseUnit: 'mg',
            route: 'Intravenous',
            batchNumber: 'LOT-ARM-A-77',
            startDate: '20240101',
          },
        ],
        indications: [{ indicationText: 'Rheumatoid arthritis' }],
      },
      { drugCharacterisation: '2', drugName: 'Paracetamol' },
    ];
    const unblinded = await printed(doc, 'en', false);
    expect(unblinded.pages.join('')).toContain('Activumab');
    const { pages } = await printed(doc, 'en', true);
    const text = squash(pages.join(''));
    for (const secret of ['Activumab', 'activumab', 'LOT-ARM-A-77', '200mg'])
      expect(text).not.toContain(squash(secret));
    expect(text).toContain('BLINDED');
    expect(text).toContain('Blinded');
    // What does not reveal the assignment stays: route, indication, the concomitant drug.
    expect(text).toContain('Intravenous');
    expect(text).toContain('Rheumatoidarthritis');
    expect(text).toContain('Paracetamol');
  }, 60_000);
});

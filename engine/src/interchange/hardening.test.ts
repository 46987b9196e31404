import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InterchangeError } from './errors';
import { detectFormat } from './format';
import { parseXml } from './xml/parse';

const e2b = fileURLToPath(new URL('../../../schemas/e2b/', import.meta.url));
// The catalogue's keys are without the namespace that refusal keys carry.
const catalogue = (lang: string) =>
  Object.fromEntries(
    Object.entries(
      JSON.parse(readFileSync(`${e2b}../i18n/interchange/${lang}.json`, 'utf8')) as Record<string, string>,
    ).map(([key, text]) => [`interchange.${key}`, text]),
  );
const zh = catalogue('zh');
const en = catalogue('en');

function refusal(run: () => unknown): InterchangeError {
  try {
    run();
  } catch (e) {
    if (e instanceof InterchangeError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

const parseAndClassify = (xml: string) => detectFormat(parseXml(xml));

describe('hardened XML parsing', () => {
  for (const file of readdirSync(`${e2b}hostile`)) {
    it(`refuses hostile ${file} quickly with a translated reason`, () => {
      const started = performance.now();
      const error = refusal(() => parseAndClassify(readFileSync(`${e2b}hostile/${file}`, 'utf8')));
      expect(performance.now() - started).toBeLessThan(1000);
      expect(['interchange.xml.entityDeclaration', 'interchange.xml.doctype']).toContain(error.key);
      expect(zh[error.key]).toBeTruthy();
      expect(en[error.key]).toBeTruthy();
    });
  }

  it('refuses the INVALID hybrid sample (R2 tags in the HL7 namespace)', () => {
    const error = refusal(() =>
      parseAndClassify(
        readFileSync(`${e2b}samples/INVALID-hybrid_py_load_eudravigilance_sample_e2b.xml`, 'utf8'),
      ),
    );
    expect(error.key).toBe('interchange.format.unknown');
    expect(error.params.root).toBe('ichicsr');
  });

  it('accepts a bare external DOCTYPE (every R2 file has one) without resolving it', () => {
    const root = parseXml(
      '<?xml version="1.0"?><!DOCTYPE ichicsr SYSTEM "ich-icsr-v2-1.dtd"><ichicsr lang="en"><ichicsrmessageheader/></ichicsr>',
    );
    expect(detectFormat(root)).toBe('r2');
  });

  it('refuses an undeclared entity reference and decodes the predefined ones', () => {
    expect(refusal(() => parseXml('<a>&foo;</a>')).key).toBe('interchange.xml.entity');
    expect(parseXml('<a b="&quot;x&amp;y&#13;">&lt;1&#x41;&gt;</a>')).toEqual({
      name: 'a',
      attrs: { b: '"x&y\r' },
      children: [],
      text: '<1A>',
    });
  });

  it('reads long text runs (attachments) byte for byte, and refuses them as it refuses short ones', () => {
    const b64 = 'QUJD'.repeat(400);
    const xml =
      `<r><t mediaType="text/plain">\r\n<ref v="a"/>${b64}&#13;\r\n${b64}</t>` +
      `<c><![CDATA[a>${b64}<b]]></c><!-- x>${b64}<y --><s>${' '.repeat(2000)}</s></r>`;
    expect(parseXml(xml)).toEqual({
      name: 'r',
      attrs: {},
      children: [
        {
          name: 't',
          attrs: { mediaType: 'text/plain' },
          children: [{ name: 'ref', attrs: { v: 'a' }, children: [] }],
          text: `\n${b64}\r\n${b64}`,
        },
        { name: 'c', attrs: {}, children: [], text: `a>${b64}<b` },
        { name: 's', attrs: {}, children: [], text: ' '.repeat(2000) },
      ],
    });
    expect(refusal(() => parseXml(`<a>${b64}&${b64}</a>`)).key).toBe('interchange.xml.malformed');
    expect(refusal(() => parseXml(`<a>${b64}&foo;${b64}</a>`)).key).toBe('interchange.xml.entity');
    expect(refusal(() => parseXml(`<a>${b64}&#x110000;</a>`)).key).toBe('interchange.xml.malformed');
    // A refusal names the line in the document as it came.
    const mismatched = refusal(() => parseXml(`<a>\n${b64}\n${b64}\n</b>`));
    expect(mismatched.key).toBe('interchange.xml.malformed');
    expect(String(mismatched.params.detail)).toMatch(/line 4\)$/);
  });

  it('enforces size, depth, attribute and element limits', () => {
    expect(refusal(() => parseXml('<a>0123456789</a>', { maxBytes: 10 })).key).toBe(
      'interchange.xml.tooLarge',
    );
    expect(refusal(() => parseXml('<a><b><c><d/></c></b></a>', { maxDepth: 3 })).key).toBe(
      'interchange.xml.tooDeep',
    );
    expect(refusal(() => parseXml('<a x="1" y="2" z="3"/>', { maxAttributes: 2 })).key).toBe(
      'interchange.xml.tooManyAttributes',
    );
    expect(refusal(() => parseXml('<a><b/><b/><b/></a>', { maxElements: 3 })).key).toBe(
      'interchange.xml.tooManyElements',
    );
    const deep = `${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}`;
    const started = performance.now();
    expect(refusal(() => parseXml(deep)).key).toMatch(/interchange\.xml\.(tooDeep|malformed)/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses what is not XML at all', () => {
    expect(refusal(() => parseXml('hello')).key).toBe('interchange.xml.malformed');
    expect(refusal(() => parseXml('<a><b></a>')).key).toBe('interchange.xml.malformed');
  });

  it('has every refusal message in zh and en', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });
});

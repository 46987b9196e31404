import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  caseBinding,
  caseToRecord,
  dataLeaves,
  emptyRecord,
  exportR3,
  importR3,
  parseXml,
  r3Mapping,
  recordToCase,
} from '@pv/engine';
import type { CaseDocument, E2bBatch, E2bRecord } from '@pv/engine';
import { validateR3Batches } from './xsd';
import type { XsdResult } from './xsd';

/** One value per NMPA regional element (schemas/e2b/nmpa/nmpa-regional-elements.csv), as the case holds it. */
const nmpaValues: Record<string, string | boolean> = {
  'C.1.CN.1': '3',
  'C.1.CN.2': '12',
  'C.1.CN.3': '8f2d6c1e4b7a49d3a5c0e9b1f3d2a7c4',
  'C.2.r.CN.1': 'zhang.wei@hospital.example.cn',
  'D.CN.1': '01',
  'D.CN.2': '1',
  'D.CN.3': '北京协和医院',
  'D.CN.4': 'CN',
  'D.CN.5': '010-69156114',
  'D.CN.6': '妊娠 12 周时停药，足月顺产',
  'G.k.CN.1': '阿莫西林胶囊',
  'G.k.CN.2': '一次性使用输液器',
  'G.k.CN.3': true,
  'G.k.CN.4': '国药准字H20003263',
  'G.k.4.r.CN.1': '20271231',
  'G.k.9.i.CN.1': '1',
  'G.k.9.i.CN.2': '1',
  'G.k.9.i.2.r.CN.1': '1',
  'G.k.9.i.2.r.CN.2': '2',
};
const nmpaIds = Object.keys(nmpaValues);

type Group = ReturnType<typeof caseBinding>;
type Item = Record<string, unknown>;

const getIn = (item: Item, path: string[]): unknown =>
  path.reduce<unknown>((node, key) => (node as Item | undefined)?.[key], item);

function setIn(item: Item, path: string[], value: unknown): void {
  let node = item;
  for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Item;
  node[path[path.length - 1] as string] = value;
}

/**
 * Fills the NMPA elements into the first instance of every repeating group (created when the case
 * has none): the NMPA assessment source and result go beside the ICH ones of the sample's assessment.
 */
function fillNmpa(group: Group, item: Item): void {
  for (const element of group.elements)
    if (element.id in nmpaValues) setIn(item, element.path, nmpaValues[element.id]);
  for (const child of group.children) {
    if (child.scalar) continue;
    let list = getIn(item, child.path) as Item[] | undefined;
    if (!Array.isArray(list)) setIn(item, child.path, (list = []));
    if (list.length === 0) list.push({});
    fillNmpa(child, list[0] as Item);
  }
}

/** The sample case (FDA scenario 1: reporter, drugs, dosages, causality) with every NMPA field filled. */
function sampleCase(): CaseDocument {
  const xml = readFileSync(
    new URL('../../../schemas/e2b/samples/fda-faers_FAERS2022Scenario1.xml', import.meta.url),
    'utf8',
  );
  return recordToCase(importR3(xml).batch.reports[0] as E2bRecord).case;
}

function nmpaCase(): CaseDocument {
  const doc = sampleCase();
  fillNmpa(caseBinding(), doc);
  return doc;
}

/** The case's values of some elements (NMPA's by default), by id (every instance, in document order). */
function nmpaFieldsOf(doc: CaseDocument, ids: string[] = nmpaIds): Record<string, unknown[]> {
  const found: Record<string, unknown[]> = {};
  const walk = (group: Group, item: Item): void => {
    for (const element of group.elements) {
      const value = getIn(item, element.path);
      if (ids.includes(element.id) && value !== undefined) (found[element.id] ??= []).push(value);
    }
    for (const child of group.children) {
      const list = getIn(item, child.path);
      if (Array.isArray(list)) for (const entry of list) walk(child, entry as Item);
    }
  };
  walk(caseBinding(), doc);
  return found;
}

/** The element names of a mapping path, predicates left out. */
function stepNames(path: string): string[] {
  let depth = 0;
  let plain = '';
  for (const c of path) {
    if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (depth === 0) plain += c;
  }
  return plain.split('/').filter(Boolean);
}

/** The leaf an element's value makes in the XML: its path's last steps and the value as written. */
function leafOf(id: string): { tail: string; code?: string } {
  const element = r3Mapping().elements.get(id);
  if (!element) throw new Error(`${id} is not in the mapping`);
  const value = nmpaValues[id];
  const carrier = element.carrier === 'text' ? 'text()' : element.carrier;
  const tail = `/${stepNames(element.path).join('/')}/${carrier}=${element.prefix ?? ''}${String(value)}`;
  const code = /code\[@code='(CN-\d+)'\]/.exec(element.path)?.[1];
  return code ? { tail, code } : { tail };
}

describe('NMPA regional elements (C.1.CN, C.2.r.CN, D.CN, G.k.CN, G.k.4.r.CN, G.k.9.i.CN, G.k.9.i.2.r.CN)', () => {
  const doc = nmpaCase();
  const batch = (of: CaseDocument): E2bBatch => ({
    format: 'r3',
    header: emptyRecord(),
    reports: [caseToRecord(of)],
  });
  const now = new Date('2026-11-21T08:00:00Z');
  const exports: Record<string, string> = {};
  const withoutNmpa: Record<string, string> = {};
  let xsd: XsdResult[] = [];
  beforeAll(async () => {
    for (const profile of ['nmpa', 'ich', 'fda']) {
      // ICH names no receiver: the sender's partner is given.
      const options = {
        profile,
        now,
        senderId: 'MAH-CN-001',
        ...(profile === 'ich' ? { receiverId: 'PARTNER-01' } : {}),
      };
      exports[profile] = exportR3(batch(doc), options);
      withoutNmpa[profile] = exportR3(batch(sampleCase()), options);
    }
    xsd = await validateR3Batches(['nmpa', 'ich', 'fda'].map((p) => exports[p] as string));
  });

  it('the case schema binds every element of the NMPA table, and the mapping declares each', () => {
    const csvIds = readFileSync(
      new URL('../../../schemas/e2b/nmpa/nmpa-regional-elements.csv', import.meta.url),
      'utf8',
    )
      .split('\n')
      .slice(1)
      .map((line) => /^"([^"]+)"/.exec(line)?.[1])
      .filter((id): id is string => id !== undefined);
    expect(csvIds.sort()).toEqual([...nmpaIds].sort());
    for (const id of nmpaIds) expect(r3Mapping().elements.has(id), id).toBe(true);
    expect(Object.keys(nmpaFieldsOf(doc)).sort()).toEqual([...nmpaIds].sort());
  });

  it('the nmpa export writes each element where the mapping declares it, and is XSD-valid', () => {
    const leaves = dataLeaves(parseXml(exports.nmpa as string));
    for (const id of nmpaIds) {
      const { tail, code } = leafOf(id);
      expect(
        leaves.some((leaf) => leaf.endsWith(tail)),
        `${id}: ${tail}`,
      ).toBe(true);
      if (code)
        expect(
          leaves.some((leaf) => leaf.endsWith(`/code/@code=${code}`)),
          `${id}: ${code}`,
        ).toBe(true);
    }
    expect(leaves.some((leaf) => leaf.endsWith('/code/@codeSystemVersion=1.1'))).toBe(true);
    expect(leaves.filter((leaf) => leaf.endsWith('/@codeSystem=CN-CSV'))).toHaveLength(2);
    expect(xsd[0]?.errors ?? []).toEqual([]);
    expect(xsd[0]?.valid).toBe(true);
  });

  it('an NMPA message imported keeps every NMPA field', () => {
    const imported = importR3(exports.nmpa as string);
    expect(imported.batch.profile).toBe('nmpa');
    // The sample's own unmapped leaves (r3-unmapped.json), and none more.
    expect(imported.unmapped).toEqual(importR3(withoutNmpa.nmpa as string).unmapped);
    const back = recordToCase(imported.batch.reports[0] as E2bRecord);
    expect(back.unbound).toEqual([]);
    expect(nmpaFieldsOf(back.case)).toEqual(nmpaFieldsOf(doc));
    // The NMPA source and result share the assessment with ICH's source, method and result.
    const ich = ['G.k.9.i.2.r.1', 'G.k.9.i.2.r.2', 'G.k.9.i.2.r.3'];
    expect(Object.keys(nmpaFieldsOf(doc, ich))).toEqual(ich);
    expect(nmpaFieldsOf(back.case, ich)).toEqual(nmpaFieldsOf(doc, ich));
  });

  it('the ich and fda exports carry none of them, and stay XSD-valid', () => {
    for (const [i, profile] of ['ich', 'fda'].entries()) {
      const xml = exports[profile] as string;
      const leaves = dataLeaves(parseXml(xml));
      for (const id of nmpaIds) {
        const { code } = leafOf(id);
        if (code)
          expect(
            leaves.some((leaf) => leaf.endsWith(`/code/@code=${code}`)),
            `${profile} ${id}`,
          ).toBe(false);
      }
      // The same file as the case without any NMPA field.
      expect(xml).toBe(withoutNmpa[profile]);
      expect(xml).not.toContain('CN-CSV');
      expect(xml).not.toContain(nmpaValues['C.2.r.CN.1']);
      expect(xsd[i + 1]?.valid, profile).toBe(true);
      // Read back, the case has no NMPA field, but for the reporter's e-mail: FDA and NMPA write
      // it as the same mailto: telecom, so FDA's (FDA.C.2.r.2.8) is read as NMPA's too.
      const back = recordToCase(importR3(xml).batch.reports[0] as E2bRecord).case;
      const fdaMail = nmpaFieldsOf(doc, ['FDA.C.2.r.2.8'])['FDA.C.2.r.2.8'];
      expect(fdaMail).toHaveLength(1);
      expect(nmpaFieldsOf(back)).toEqual(profile === 'fda' ? { 'C.2.r.CN.1': fdaMail } : {});
    }
  });
});

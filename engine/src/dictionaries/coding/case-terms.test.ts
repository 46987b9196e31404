import { describe, expect, it } from 'vitest';
import { generateMeddra, meddraFiles, SMALL_MEDDRA } from '../synthetic';
import { walkCaseSchema } from '../../case-model/index';
import { MeddraDictionary } from '../meddra/dictionary';
import { parseMeddraRelease } from '../meddra/parse';
import {
  MEDDRA_FIELD_LOCATIONS,
  applyMeddraTerms,
  codedTermFromCoding,
  meddraLocationOfField,
  meddraTermsOf,
} from './case-terms';

const en = new MeddraDictionary(parseMeddraRelease(meddraFiles(generateMeddra(SMALL_MEDDRA).en)));
const llt = (i: number) => en.codingOf(generateMeddra(SMALL_MEDDRA).en.llts[i]!.code)!;

describe('the MedDRA fields of the case', () => {
  it('names every MedDRA code of the case schema, and each sibling it writes exists there', () => {
    const codes: string[] = [];
    const all = new Set<string>();
    walkCaseSchema((property) => {
      all.add(property.pointer);
      if (/[mM]eddraCode$/.test(property.name)) codes.push(property.pointer);
    });
    expect(codes.length).toBeGreaterThanOrEqual(MEDDRA_FIELD_LOCATIONS.length);
    for (const pointer of codes) expect(meddraLocationOfField(pointer), pointer).not.toBeNull();
    for (const location of MEDDRA_FIELD_LOCATIONS) {
      const siblings = [
        location.code,
        location.version,
        location.name,
        location.pt?.code,
        location.pt?.name,
        location.soc?.code,
        location.soc?.name,
        ...location.verbatim,
      ].filter((p): p is string => !!p);
      for (const property of siblings) expect(all.has(`${location.item}/${property}`), property).toBe(true);
    }
  });

  it('lists coded and uncoded terms with their verbatim text, blank rows left out', () => {
    const reaction = codedTermFromCoding(llt(3));
    const pastReactionCode = llt(4).llt.code;
    const doc = {
      reactions: [{ reactionNative: '头痛', reactionTranslation: 'Headache', ...reaction }, {}],
      drugs: [{ indications: [{ indicationText: 'Hypertension' }] }],
      patient: { pastDrugs: [{ indicationTerm: 'Asthma', reactionMeddraCode: pastReactionCode }] },
    };
    const terms = meddraTermsOf(doc);
    expect(terms.map((t) => t.ref)).toEqual([
      '/reactions/0#reaction',
      '/drugs/0/indications/0#indication',
      '/patient/pastDrugs/0#pastDrugIndication',
      '/patient/pastDrugs/0#pastDrugReaction',
    ]);
    expect(terms[0]).toMatchObject({
      verbatim: '头痛 / Headache',
      e2b: 'E.i.2.1',
      meddraCode: reaction.meddraCode,
      meddraSocCode: reaction.meddraSocCode,
    });
    expect(terms[1]!.meddraCode).toBeUndefined();
    expect(terms[3]).toMatchObject({ meddraCode: pastReactionCode, verbatim: '' });
  });

  it('writes a coding into its item only, keeping the document given untouched', () => {
    const doc = {
      reactions: [{ reactionNative: 'x', meddraPtCode: '99999999' }],
      drugs: [{ indications: [{ indicationText: 'y' }] }],
      patient: { pastDrugs: [{ indicationTerm: 'Asthma' }, {}] },
    };
    const coding = codedTermFromCoding(llt(5));
    const {
      doc: out,
      applied,
      missing,
    } = applyMeddraTerms(doc, [
      { ref: '/reactions/0#reaction', ...coding },
      { ref: '/drugs/0/indications/0#indication', ...coding },
      { ref: '/patient/pastDrugs/0#pastDrugIndication', ...coding },
      { ref: '/patient/pastDrugs/1#pastDrugIndication', ...coding },
      { ref: '/reactions/4#reaction', ...coding },
    ]);
    expect(applied).toHaveLength(4);
    expect(missing).toEqual(['/reactions/4#reaction']);
    expect(doc.reactions[0]).toEqual({ reactionNative: 'x', meddraPtCode: '99999999' });
    const reaction = (out.reactions as Record<string, unknown>[])[0]!;
    expect(reaction).toMatchObject({ reactionNative: 'x', ...coding });
    expect((out.drugs as { indications: unknown[] }[])[0]!.indications[0]).toEqual({
      indicationText: 'y',
      meddraCode: coding.meddraCode,
      meddraVersion: coding.meddraVersion,
      meddraLltName: coding.meddraLltName,
    });
    // The past drug's term is its verbatim: kept when reported, filled with the LLT name when empty.
    const pastDrugs = (out.patient as { pastDrugs: Record<string, unknown>[] }).pastDrugs;
    expect(pastDrugs[0]).toEqual({
      indicationTerm: 'Asthma',
      indicationMeddraCode: coding.meddraCode,
      indicationMeddraVersion: coding.meddraVersion,
    });
    expect(pastDrugs[1]!.indicationTerm).toBe(coding.meddraLltName);
  });
});

import { describe, expect, it } from 'vitest';
import { caseToRecord } from '../case-binding';
import { exportR3, importR3 } from './index';

// A drug entered in the platform carries no UUID; its causality assessment (G.k.9.i) must still
// point at the drug's substanceAdministration id.
const entered = {
  report: { reportCode: 'CN-TEST-1', reportType: '1' },
  reactions: [{ id: '6f1c1d2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f', nativeName: '头痛' }],
  drugs: [
    {
      drugCharacterisation: '1',
      drugName: 'XY-101',
      reactionAssessments: [
        {
          reactionId: '6f1c1d2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f',
          assessments: [{ source: 'Investigator', method: 'WHO-UMC', result: 'Possible' }],
        },
      ],
    },
  ],
};

/** The transmission time of the batches written here (they carry none of their own). */
const NOW = new Date('2026-11-21T08:00:00Z');

describe('instance identifiers on export', () => {
  it('gives a drug without a UUID one, and causality refers to it', () => {
    const xml = exportR3(
      { format: 'r3', header: { values: {}, groups: {} }, reports: [caseToRecord(entered)] },
      { senderId: 'S', receiverId: 'R', now: NOW },
    );
    expect(xml).not.toContain('{G.k}');
    const drugIds = [...xml.matchAll(/<substanceAdministration [^>]*>\s*<id root="([^"]+)"/g)].map(
      (m) => m[1],
    );
    const refs = [...xml.matchAll(/<productUseReference [^>]*>\s*<id root="([^"]+)"/g)].map((m) => m[1]);
    expect(drugIds).toHaveLength(1);
    expect(drugIds[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(refs.length).toBeGreaterThan(0);
    expect(new Set(refs)).toEqual(new Set(drugIds));
  });

  it('keeps the UUID a received drug came with', () => {
    const xml = exportR3(
      { format: 'r3', header: { values: {}, groups: {} }, reports: [caseToRecord(entered)] },
      { senderId: 'S', receiverId: 'R', now: NOW },
    );
    const again = exportR3(importR3(xml).batch, { senderId: 'S', receiverId: 'R' });
    const id = (text: string) => /<substanceAdministration [^>]*>\s*<id root="([^"]+)"/.exec(text)?.[1];
    expect(id(again)).toBe(id(xml));
  });
});

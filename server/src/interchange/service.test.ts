import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { exportCases, readImportFile } from './service';

const e2b = fileURLToPath(new URL('../../../schemas/e2b/', import.meta.url));
const bytes = (path: string) => new Uint8Array(readFileSync(`${e2b}${path}`));

describe('readImportFile', () => {
  it('reads every message of a zip into case documents', () => {
    const zip = zipSync({
      'r3.xml': bytes('samples/fda-faers_FAERS2022Scenario2.xml'),
      'r2/one.xml': bytes('samples/ich-bfc-draft_utr2-03.xml'),
    });
    const outcome = readImportFile('batch.zip', zip);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.messages.map((m) => [m.entry, m.format, m.cases.length])).toEqual([
      ['r3.xml', 'r3', 1],
      ['r2/one.xml', 'r2', 1],
    ]);
    expect(outcome.messages[0]?.profile).toBe('fda');
  });

  it('refuses the whole zip when one entry is hostile, naming the entry', () => {
    const zip = zipSync({
      'good.xml': bytes('samples/fda-faers_FAERS2022Scenario1.xml'),
      'evil.xml': bytes('hostile/py_load_eudravigilance_test_xxe_external.xml'),
    });
    const outcome = readImportFile('batch.zip', zip);
    expect(outcome).toEqual({
      ok: false,
      refusal: { entry: 'evil.xml', key: 'interchange.xml.entityDeclaration', params: {} },
    });
  });

  it('tells an acknowledgement from a case report', () => {
    const outcome = readImportFile('ack.xml', bytes('samples/fda-faers_R3ack-positive.ack.xml'));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.refusal.key).toBe('interchange.import.isAck');
  });
});

/** The transmission time the exports are stamped with. */
const NOW = new Date('2026-11-21T08:00:00Z');

describe('exportCases', () => {
  it('refuses an empty selection and an unknown profile with translated keys', async () => {
    expect(await exportCases([], { format: 'r3', now: NOW })).toMatchObject({
      ok: false,
      refusal: { key: 'interchange.export.noCases' },
    });
    expect(
      await exportCases([{ report: { reportCode: 'X' } }], {
        format: 'r3',
        profile: 'mars',
        senderId: 'S',
        receiverId: 'R',
        now: NOW,
      }),
    ).toMatchObject({
      ok: false,
      refusal: { key: 'interchange.export.unknownProfile', params: { profile: 'mars' } },
    });
  });

  it('writes a minimal case as XSD-valid R3 for a receiver profile', async () => {
    const outcome = await exportCases([{ report: { reportCode: 'CN-TEST-1', reportType: '1' } }], {
      format: 'r3',
      profile: 'nmpa',
      senderId: 'SENDER',
      now: NOW,
    });
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(outcome.xml).toContain('extension="CDE"');
  });
});

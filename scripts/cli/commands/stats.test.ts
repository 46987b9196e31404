import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { disproportionality } from '@pv/engine';
import { generateMeddra, meddraFiles, SMALL_MEDDRA, writeFiles } from '../../generate-dictionaries';
import { run } from './stats';

const root = mkdtempSync(join(tmpdir(), 'pv-stats-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const release = generateMeddra(SMALL_MEDDRA).en;
const meddraDir = join(root, 'meddra-en');
writeFiles(meddraDir, meddraFiles(release));

// Two LLTs under one PT (the PT's own LLT and another), and an LLT of a PT in another SOC.
const pt = release.pts.find((p) => release.llts.filter((l) => l.ptCode === p.code).length >= 2)!;
const [lltA, lltB] = release.llts.filter((l) => l.ptCode === pt.code);
const otherPt = release.pts.find((p) => p.primarySocCode !== pt.primarySocCode)!;

const aCase = (drug: string, codes: string[], validity = 'valid') => ({
  state: { validity },
  drugs: [
    { drugCharacterisation: '1', drugName: drug },
    { drugCharacterisation: '2', drugName: 'Concomitant' },
  ],
  reactions: codes.map((meddraCode) => ({ meddraCode })),
});

// Drug X: 4 cases with the PT (one of them coded twice, under two LLTs); drug Y: 1 with it, 5 without.
const cases = [
  aCase('Drug X', [lltA!.code, lltB!.code]),
  aCase('Drug X', [lltA!.code]),
  aCase('drug x', [lltB!.code]),
  aCase('Drug X', [lltA!.code, otherPt.code]),
  aCase('Drug X', [otherPt.code]),
  aCase('Drug Y', [lltA!.code]),
  ...Array.from({ length: 5 }, () => aCase('Drug Y', [otherPt.code])),
  aCase('Drug X', [lltA!.code], 'deleted'),
];
const file = join(root, 'cases.jsonl');
writeFileSync(file, `${cases.map((c) => JSON.stringify(c)).join('\n')}\n`);

async function output(args: string[], env: Record<string, string> = { LANG: 'en' }) {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
  const error = vi.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
  try {
    const code = await run(args, env);
    return {
      code,
      rows: out.map((line) => JSON.parse(line) as Record<string, unknown>),
      err: err.join('\n'),
    };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe('stats signals', () => {
  it('prints one line per drug x PT through the release, counted per case', async () => {
    const { code, rows, err } = await output([
      'signals',
      file,
      '--by',
      'pt',
      '--meddra',
      meddraDir,
      '--min-cases',
      '1',
    ]);
    expect(code).toBe(0);
    const row = rows.find((r) => r.drug === 'Drug X' && r.event === pt.code)!;
    // 11 valid cases; X with PT 4, X without 1, Y with PT 1, Y without 5.
    // The documented fields, in order (issue 22 item 4).
    expect(Object.keys(row).join(' ')).toBe('drug event a b c d prr chi2 ror rorLower rorUpper ic ic025');
    expect(row).toMatchObject({ a: 4, b: 1, c: 1, d: 5 });
    const figures = disproportionality({ a: 4, b: 1, c: 1, d: 5 });
    expect(row.prr).toBeCloseTo(4 / 5 / (1 / 6), 10);
    expect(row.ror).toBeCloseTo(20, 10);
    expect(row.ic025).toBeCloseTo(figures.ic025!, 12);
    expect(rows.some((r) => r.drug === 'Concomitant')).toBe(false);
    expect(err).toContain('11 cases counted; 1 left out');
  });

  it('by term keeps the stored codes apart; by soc merges to the primary SOC', async () => {
    const term = await output(['signals', file, '--by', 'term', '--min-cases', '1']);
    expect(term.rows.find((r) => r.drug === 'Drug X' && r.event === lltA!.code)).toMatchObject({ a: 3 });
    expect(term.rows.find((r) => r.drug === 'Drug X' && r.event === lltB!.code)).toMatchObject({ a: 2 });
    const soc = await output(['signals', file, '--by', 'soc', '--meddra', meddraDir, '--min-cases', '1']);
    expect(soc.rows.find((r) => r.drug === 'Drug X' && r.event === pt.primarySocCode)).toMatchObject({
      a: 4,
    });
  });

  it('--min-cases drops rarer pairs (default 3); --include-invalid counts the deleted case', async () => {
    const { rows } = await output(['signals', file, '--by', 'pt', '--meddra', meddraDir]);
    expect(rows.every((r) => (r.a as number) >= 3)).toBe(true);
    expect(rows.find((r) => r.drug === 'Drug Y' && r.event === otherPt.code)).toMatchObject({ a: 5 });
    const all = await output(['signals', file, '--by', 'pt', '--meddra', meddraDir, '--include-invalid']);
    expect(all.rows.find((r) => r.drug === 'Drug X' && r.event === pt.code)).toMatchObject({ a: 5 });
  });

  it('refuses wrong usage and bad input with a message in the chosen language', async () => {
    expect((await output(['signals', file, '--by', 'hlt'])).code).toBe(2);
    expect((await output(['signals', file, '--by', 'pt', '--min-cases', '0'])).code).toBe(2);
    const zh = await output(['signals', file, '--by', 'llt', '--lang', 'zh']);
    expect(zh.err).toContain('--by 只能是 term、pt 或 soc');
    const bad = join(root, 'bad.jsonl');
    writeFileSync(bad, `${readFileSync(file, 'utf8')}{not json\n`);
    const refused = await output(['signals', bad, '--by', 'term']);
    expect(refused.code).toBe(1);
    expect(refused.rows).toEqual([]);
    expect(refused.err).toContain(`line ${cases.length + 1} is not a JSON object`);
    expect((await output(['signals', join(root, 'none.jsonl'), '--by', 'term'])).code).toBe(1);
    expect((await output(['signals', file, '--by', 'pt', '--meddra', join(root, 'none')])).code).toBe(1);
  });
});

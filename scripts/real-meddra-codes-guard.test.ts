/**
 * MedDRA is licensed: the repository codes with the synthetic release of engine/src/dictionaries/synthetic.ts.
 * This guard knows only the real MedDRA codes the repository once held (the old demo seed and test
 * fixtures, with their term names) and fails if one of them comes back in a file of the working
 * tree (tracked or new, .gitignore honoured). It is no general MedDRA detector: a real code not in
 * the list passes. The official ICH/FDA E2B sample messages (schemas/e2b) are public regulator
 * material and are left out, as are byte-identical copies of them used as fixtures.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SAMPLES = 'schemas/e2b/';
const THIS_FILE = 'scripts/real-meddra-codes-guard.test.ts';

/** LLT/PT codes removed from the demo seed and the fixtures (Vomiting, Headache, Rash ...). */
const REMOVED_REAL_CODES = [
  '10002198',
  '10005851',
  '10012735',
  '10016288',
  '10019211',
  '10019670',
  '10020772',
  '10022611',
  '10028813',
  '10035664',
  '10037844',
  '10042772',
  '10043554',
  '10047700',
  '10049418',
  '10061873',
  '10069339',
];

function workingTreeFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return out.split('\0').filter((path) => path && existsSync(join(ROOT, path)));
}

/** Files that hold one of `codes`, with the codes found (sample messages and their copies aside). */
function filesWithCodes(files: readonly string[], codes: readonly string[], read: (path: string) => Buffer) {
  const pattern = new RegExp(`(?<![0-9])(${codes.join('|')})(?![0-9])`, 'g');
  const samples = new Set(
    files.filter((path) => path.startsWith(SAMPLES)).map((path) => read(path).toString('latin1')),
  );
  const found: Record<string, string[]> = {};
  for (const path of files) {
    if (path.startsWith(SAMPLES) || path === THIS_FILE) continue;
    const content = read(path);
    if (content.includes(0)) continue; // binary (images, archives)
    const text = content.toString('latin1');
    if (samples.has(text)) continue;
    const hits = text.match(pattern);
    if (hits) found[path] = [...new Set(hits)];
  }
  return found;
}

describe('regression guard for the real MedDRA codes once in the repository', () => {
  it('finds none of those codes outside the official E2B samples', () => {
    const found = filesWithCodes(workingTreeFiles(), REMOVED_REAL_CODES, (path) =>
      readFileSync(join(ROOT, path)),
    );
    expect(found).toEqual({});
  });

  it('would report such a code, and skips the samples and their copies', () => {
    const files: Record<string, string> = {
      'schemas/e2b/samples/a.xml': '<code code="10019211"/>',
      'server/src/x/fixtures/a.xml': '<code code="10019211"/>',
      'engine/src/x.ts': "meddraCode: '10019211', other: '310019211'",
      'engine/src/y.ts': "meddraCode: '10000089'",
    };
    const found = filesWithCodes(Object.keys(files), ['10019211'], (path) => Buffer.from(files[path]!));
    expect(found).toEqual({ 'engine/src/x.ts': ['10019211'] });
  });
});

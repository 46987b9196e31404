/**
 * Writes the synthetic dictionaries (engine/src/dictionaries/synthetic.ts: MedDRA zh and en
 * releases sharing codes, WHODrug Global B3) to disk in the official distribution layouts:
 *
 *   node --import tsx scripts/generate-dictionaries.ts --out <dir> [--size small|full] [--version 27.0]
 *
 * writes <dir>/meddra-en, <dir>/meddra-zh and <dir>/whodrug. Scripts' tests and the benchmark
 * import the generator from here too; server, web and engine code import it from `@pv/engine`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  FULL_MEDDRA,
  SMALL_MEDDRA,
  generateMeddra,
  generateWhodrug,
  meddraFiles,
  whodrugFiles,
} from '@pv/engine';

export {
  FULL_MEDDRA,
  SMALL_MEDDRA,
  generateMeddra,
  generateWhodrug,
  meddraFiles,
  whodrugFiles,
  seededRandom as random,
} from '@pv/engine';
export type { MeddraPair, MeddraSize } from '@pv/engine';

export function writeFiles(dir: string, files: Map<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of files) writeFileSync(join(dir, name), content);
}

function main(args: string[]): number {
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const out = value('--out');
  if (!out) {
    console.error('Usage: generate-dictionaries --out <dir> [--size small|full] [--version 27.0]');
    return 2;
  }
  const size = value('--size') === 'full' ? FULL_MEDDRA : SMALL_MEDDRA;
  const pair = generateMeddra(size, { version: value('--version') });
  writeFiles(join(out, 'meddra-en'), meddraFiles(pair.en));
  writeFiles(join(out, 'meddra-zh'), meddraFiles(pair.zh));
  writeFiles(
    join(out, 'whodrug'),
    whodrugFiles(generateWhodrug({ records: size === FULL_MEDDRA ? 20000 : 60 })),
  );
  console.log(`wrote ${out}/meddra-en, ${out}/meddra-zh, ${out}/whodrug`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exit(main(process.argv.slice(2)));

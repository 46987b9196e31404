/** Test helpers of the E2B interchange: the shared E2B samples read as the import reads them. */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readImportFile } from './service';

const SAMPLES = fileURLToPath(new URL('../../../schemas/e2b/samples/', import.meta.url));

/** Every case of every shared E2B sample the import takes, named `<file>#<n>`, in file order. */
export function sampleCases<Doc = Record<string, unknown>>(): { name: string; doc: Doc }[] {
  const out: { name: string; doc: Doc }[] = [];
  for (const file of readdirSync(SAMPLES)
    .filter((f) => f.endsWith('.xml'))
    .sort()) {
    const outcome = readImportFile(file, new Uint8Array(readFileSync(`${SAMPLES}${file}`)));
    if (!outcome.ok) continue;
    for (const message of outcome.messages)
      message.cases.forEach((c, i) => out.push({ name: `${file}#${i + 1}`, doc: c.document as Doc }));
  }
  return out;
}

/**
 * Writes the browser validators of the base configuration (case schema, code lists) as one ES module:
 * schemas/generated/validators/case-validators.mjs (AJV standalone code; see engine/src/validation/standalone.ts).
 * Tenant and project configurations get theirs from the same function at run time, keyed by configuration hash.
 *
 *   node --import tsx scripts/generate-validators.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseConfiguration, resolveConfiguration, standaloneValidatorsModule } from '@pv/engine';

export const VALIDATORS_FILE = fileURLToPath(
  new URL('../schemas/generated/validators/case-validators.mjs', import.meta.url),
);

export function generateValidators(): string {
  return standaloneValidatorsModule(resolveConfiguration(baseConfiguration()));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  const code = generateValidators();
  mkdirSync(dirname(VALIDATORS_FILE), { recursive: true });
  writeFileSync(VALIDATORS_FILE, code);
  console.log(
    `wrote ${VALIDATORS_FILE} (${(code.length / 1024).toFixed(0)} KiB) in ${(performance.now() - started).toFixed(0)} ms`,
  );
}

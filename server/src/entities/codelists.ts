/** Code-list checks the entity schemas cannot express (they only check a value's shape). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const COUNTRY_FILE = fileURLToPath(new URL('../../../schemas/codelists/country.json', import.meta.url));
let countries: ReadonlySet<string> | null = null;

/** ISO 3166-1 alpha-2 codes of the country code list (schemas/codelists/country.json). */
export function isCountryCode(code: string): boolean {
  countries ??= new Set(
    (JSON.parse(readFileSync(COUNTRY_FILE, 'utf8')) as { values: { code: string }[] }).values.map(
      (value) => value.code,
    ),
  );
  return countries.has(code);
}

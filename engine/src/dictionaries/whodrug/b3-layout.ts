/**
 * WHODrug Global B3 format: fixed-width text files, one record per line. Positions are 0-based
 * start and length in characters. This table is the single place the layout is declared; the
 * synthetic generator (engine/src/dictionaries/synthetic.ts) writes from it and the reader reads from
 * it. Check it against UMC's "WHODrug B3 format" file description of the release being loaded.
 */
export interface FieldSpec {
  start: number;
  length: number;
}

/** The drug code that opens DD.txt and DDA.txt records: record number, sequence 1 and 2, check digit. */
const DRUG_CODE = {
  drugRecordNumber: { start: 0, length: 6 },
  sequence1: { start: 6, length: 2 },
  sequence2: { start: 8, length: 3 },
  checkDigit: { start: 11, length: 1 },
} as const;

export const B3_LAYOUT = {
  /** Drug names: one record per drug code (record number + sequence 1 + sequence 2). */
  'DD.txt': {
    ...DRUG_CODE,
    designation: { start: 12, length: 1 },
    sourceYear: { start: 13, length: 2 },
    source: { start: 15, length: 4 },
    companyCode: { start: 19, length: 5 },
    numberOfIngredients: { start: 24, length: 2 },
    saltEsterCode: { start: 26, length: 1 },
    yearQuarter: { start: 27, length: 3 },
    drugName: { start: 30, length: 1500 },
  },
  /** ATC classification of drug codes. */
  'DDA.txt': {
    ...DRUG_CODE,
    atcCode: { start: 12, length: 7 },
    yearQuarter: { start: 19, length: 3 },
    officialAtcCode: { start: 22, length: 1 },
  },
  /** ATC texts. */
  'INA.txt': {
    atcCode: { start: 0, length: 7 },
    level: { start: 7, length: 1 },
    text: { start: 8, length: 110 },
  },
  /** Companies (marketing authorisation holders), optional. */
  'MAN.txt': {
    companyCode: { start: 0, length: 5 },
    companyName: { start: 5, length: 80 },
    countryCode: { start: 85, length: 10 },
  },
  /** Countries, optional. */
  'CCODE.txt': {
    countryCode: { start: 0, length: 10 },
    countryName: { start: 10, length: 80 },
  },
} as const satisfies Record<string, Record<string, FieldSpec>>;

export type B3File = keyof typeof B3_LAYOUT;
export const B3_REQUIRED_FILES: B3File[] = ['DD.txt', 'DDA.txt', 'INA.txt'];
export const B3_OPTIONAL_FILES: B3File[] = ['MAN.txt', 'CCODE.txt'];

/** Fields a record must fill; a record missing one is refused. */
export const B3_REQUIRED_FIELDS: { [F in B3File]: (keyof (typeof B3_LAYOUT)[F])[] } = {
  'DD.txt': ['drugRecordNumber', 'sequence1', 'sequence2', 'drugName'],
  'DDA.txt': ['drugRecordNumber', 'sequence1', 'sequence2', 'atcCode'],
  'INA.txt': ['atcCode', 'level', 'text'],
  'MAN.txt': ['companyCode', 'companyName'],
  'CCODE.txt': ['countryCode', 'countryName'],
};

/** Reads the fields of one record (trailing spaces trimmed). */
export function readRecord<F extends B3File>(
  file: F,
  line: string,
): Record<keyof (typeof B3_LAYOUT)[F], string> {
  const out: Record<string, string> = {};
  const chars = [...line];
  for (const [name, spec] of Object.entries(B3_LAYOUT[file]) as [string, FieldSpec][]) {
    out[name] = chars
      .slice(spec.start, spec.start + spec.length)
      .join('')
      .trim();
  }
  return out as Record<keyof (typeof B3_LAYOUT)[F], string>;
}

/** Writes one record: each field padded to its width (the generator's counterpart of readRecord). */
export function writeRecord<F extends B3File>(
  file: F,
  values: Partial<Record<keyof (typeof B3_LAYOUT)[F], string>>,
): string {
  const fields = Object.entries(B3_LAYOUT[file]) as [string, FieldSpec][];
  let line = '';
  fields.forEach(([name, spec], i) => {
    const value = (values as Record<string, string | undefined>)[name] ?? '';
    const chars = [...value];
    if (chars.length > spec.length)
      throw new Error(`${file} ${name}: "${value}" is longer than ${spec.length}`);
    // The last field is written without padding, as the distribution trims trailing blanks.
    line += i === fields.length - 1 ? value : value + ' '.repeat(spec.length - chars.length);
  });
  return line.trimEnd();
}

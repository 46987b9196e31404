/**
 * Reads a WHODrug Global release in B3 format (DD.txt drug names, DDA.txt ATC classification,
 * INA.txt ATC texts; MAN.txt companies and CCODE.txt countries when present). Every record is
 * checked; the release is refused on any issue with the file and line of each.
 */
import { IssueList, decodeText, fileLookup, numberedLines } from '../format-error';
import type { TermLanguage } from '../text';
import type { B3File } from './b3-layout';
import { B3_REQUIRED_FIELDS, B3_REQUIRED_FILES, readRecord } from './b3-layout';
import type { WhodrugAtc, WhodrugCompany, WhodrugDrug, WhodrugRelease } from './types';

const DIGITS = (n: number) => new RegExp(`^[0-9]{${n}}$`);
const RECORD = DIGITS(6);
const SEQ1 = DIGITS(2);
const SEQ2 = DIGITS(3);
const ATC = /^[A-Z]([0-9]{2}([A-Z]([A-Z]([0-9]{2})?)?)?)?$/;

export interface ParseWhodrugOptions {
  version: string;
  language?: TermLanguage;
}

export function parseWhodrugRelease(
  files: ReadonlyMap<string, Uint8Array | string>,
  options: ParseWhodrugOptions,
): WhodrugRelease {
  const issues = new IssueList();
  const find = fileLookup(files);
  for (const name of B3_REQUIRED_FILES) if (!find(name)) issues.add(name, 0, 'missingFile', { file: name });
  if (!options.version.trim()) issues.add('DD.txt', 0, 'missingVersion');
  issues.throwIfAny();

  function* records<F extends B3File>(name: F) {
    const found = find(name);
    if (!found) return;
    const [file, content] = found;
    for (const [line, text] of numberedLines(decodeText(content))) {
      const record = readRecord(name, text);
      const missing = B3_REQUIRED_FIELDS[name].find((field) => record[field] === '');
      if (missing !== undefined) {
        issues.add(file, line, 'missingField', { field: String(missing) });
        continue;
      }
      yield { file, line, record };
    }
  }

  const atc = new Map<string, WhodrugAtc>();
  for (const { file, line, record } of records('INA.txt')) {
    const level = Number(record.level);
    if (!ATC.test(record.atcCode) || !(level >= 1 && level <= 5)) {
      issues.add(file, line, 'invalidAtc', { code: record.atcCode });
    } else if (atc.has(record.atcCode)) {
      issues.add(file, line, 'duplicateCode', { code: record.atcCode, firstLine: '' });
    } else atc.set(record.atcCode, { code: record.atcCode, level, text: record.text });
  }

  const countries = new Map<string, string>();
  for (const { record } of records('CCODE.txt')) countries.set(record.countryCode, record.countryName);
  const companies = new Map<string, WhodrugCompany>();
  for (const { file, line, record } of records('MAN.txt')) {
    if (companies.has(record.companyCode)) {
      issues.add(file, line, 'duplicateCode', { code: record.companyCode, firstLine: '' });
      continue;
    }
    companies.set(record.companyCode, {
      code: record.companyCode,
      name: record.companyName,
      countryCode: record.countryCode,
    });
  }

  const drugs = new Map<string, WhodrugDrug>();
  const firstLine = new Map<string, number>();
  for (const { file, line, record } of records('DD.txt')) {
    if (
      !RECORD.test(record.drugRecordNumber) ||
      !SEQ1.test(record.sequence1) ||
      !SEQ2.test(record.sequence2)
    ) {
      issues.add(file, line, 'invalidDrugCode', {
        code: `${record.drugRecordNumber}${record.sequence1}${record.sequence2}`,
      });
      continue;
    }
    const drugCode = record.drugRecordNumber + record.sequence1 + record.sequence2;
    if (drugs.has(drugCode)) {
      issues.add(file, line, 'duplicateCode', { code: drugCode, firstLine: firstLine.get(drugCode)! });
      continue;
    }
    if (record.companyCode && companies.size > 0 && !companies.has(record.companyCode)) {
      issues.add(file, line, 'unknownReference', {
        code: record.companyCode,
        level: 'company',
        target: 'MAN.txt',
      });
      continue;
    }
    firstLine.set(drugCode, line);
    drugs.set(drugCode, {
      drugCode,
      drugRecordNumber: record.drugRecordNumber,
      sequence1: record.sequence1,
      sequence2: record.sequence2,
      checkDigit: record.checkDigit,
      designation: record.designation,
      name: record.drugName,
      companyCode: record.companyCode,
      numberOfIngredients: Number(record.numberOfIngredients) || 0,
      yearQuarter: record.yearQuarter,
      atcCodes: [],
    });
  }

  for (const { file, line, record } of records('DDA.txt')) {
    const drugCode = record.drugRecordNumber + record.sequence1 + record.sequence2;
    const drug = drugs.get(drugCode);
    if (!drug) {
      issues.add(file, line, 'unknownReference', { code: drugCode, level: 'drug', target: 'DD.txt' });
    } else if (!atc.has(record.atcCode)) {
      issues.add(file, line, 'unknownReference', { code: record.atcCode, level: 'ATC', target: 'INA.txt' });
    } else if (!drug.atcCodes.includes(record.atcCode)) {
      if (record.officialAtcCode === 'Y') drug.atcCodes.unshift(record.atcCode);
      else drug.atcCodes.push(record.atcCode);
    }
  }
  issues.throwIfAny();

  return {
    version: options.version.trim(),
    language: options.language ?? 'en',
    drugs: [...drugs.values()],
    atc: [...atc.values()],
    companies: [...companies.values()],
    countries: [...countries].map(([code, name]) => ({ code, name })),
  };
}

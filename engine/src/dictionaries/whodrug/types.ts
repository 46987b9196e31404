/** A WHODrug Global release (B3 format) as the importer reads it. */
import type { TermLanguage } from '../text';

export interface WhodrugDrug {
  /** Drug code: record number (6) + sequence 1 (2) + sequence 2 (3). */
  drugCode: string;
  drugRecordNumber: string;
  sequence1: string;
  sequence2: string;
  checkDigit: string;
  designation: string;
  name: string;
  companyCode: string;
  numberOfIngredients: number;
  yearQuarter: string;
  /** ATC codes assigned to this drug code (DDA.txt), official ones first. */
  atcCodes: string[];
}

export interface WhodrugAtc {
  code: string;
  level: number;
  text: string;
}

export interface WhodrugCompany {
  code: string;
  name: string;
  countryCode: string;
}

export interface WhodrugRelease {
  version: string;
  language: TermLanguage;
  drugs: WhodrugDrug[];
  atc: WhodrugAtc[];
  companies: WhodrugCompany[];
  countries: Array<{ code: string; name: string }>;
}

/** Dictionaries (MedDRA, WHODrug): parsing of the distribution files, search, coding, recoding. */
export * from './text';
export { DictionaryFormatError } from './format-error';
export type { FormatIssue } from './format-error';
export { NgramIndex } from './ngram';
export * from './meddra/types';
export { MEDDRA_REQUIRED_FILES, MEDDRA_OPTIONAL_FILES, parseMeddraRelease } from './meddra/parse';
export type { ParseMeddraOptions } from './meddra/parse';
export {
  MEDDRA_QUERY_MIN_CHARS,
  MEDDRA_SEARCH_MAX_LIMIT,
  MeddraDictionary,
  checkMeddraQuery,
} from './meddra/dictionary';
export type {
  MeddraHit,
  MeddraNode,
  MeddraPathView,
  MeddraRef,
  MeddraSearchOptions,
  MeddraSearchResult,
  MeddraSelection,
  MeddraSuggestion,
  MeddraTermDetail,
} from './meddra/dictionary';
export { checkCodingVersions, recodeMeddraTerms } from './meddra/recode';
export type {
  CodedMeddraTerm,
  CodingVersionIssue,
  RecodeChange,
  RecodeReport,
  RecodeStatus,
  RecodedTerm,
} from './meddra/recode';
export * from './whodrug/types';
export {
  B3_LAYOUT,
  B3_OPTIONAL_FILES,
  B3_REQUIRED_FILES,
  readRecord,
  writeRecord,
} from './whodrug/b3-layout';
export { parseWhodrugRelease } from './whodrug/parse';
export type { ParseWhodrugOptions } from './whodrug/parse';
export { WHODRUG_QUERY_MIN_CHARS, WhodrugDictionary, checkWhodrugQuery } from './whodrug/dictionary';
export type { WhodrugDetail, WhodrugHit, WhodrugSearchOptions } from './whodrug/dictionary';
export {
  MEDDRA_FIELD_LOCATIONS,
  applyMeddraTerms,
  codedTermFromCoding,
  codedTermOf,
  meddraLocationOfField,
  meddraLocationOfRef,
  meddraTermsOf,
  meddraWrites,
} from './coding/case-terms';
export type { CaseMeddraTerm, MeddraFieldLocation } from './coding/case-terms';
// Synthetic releases in the official layouts (no licensed content): tests, the demo seed, benchmarks.
export {
  FULL_MEDDRA,
  SMALL_MEDDRA,
  generateMeddra,
  generateWhodrug,
  meddraFiles,
  whodrugFiles,
  random as seededRandom,
} from './synthetic';
export type { MeddraPair, MeddraSize } from './synthetic';

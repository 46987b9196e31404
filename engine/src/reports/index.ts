/** Report outputs (CIOMS I, case report): pure layout of a case document; printing lives in the server. */
export type { ReportLanguage } from './values';
export {
  REPORT_LANGUAGES,
  reportText,
  reportCatalogues,
  formatValue,
  formatE2bDate,
  BLINDED,
  BLINDED_IN_TEXT,
  valuesAt as documentValuesAt,
} from './values';
export { foldPdfText, wrapText, widthOf } from './text';
export { buildCiomsForm, ciomsMapping, parseLineTemplate, CHECKED, UNCHECKED } from './cioms';
export type {
  CiomsForm,
  CiomsBox,
  CiomsLine,
  CiomsMapping,
  ContinuationPage,
  ContinuationLine,
} from './cioms';
export { blindCase, isBlindedDrug } from './blinding';
export { buildCaseReport } from './case-report';
export type { CaseReport, CaseReportGroup, CaseReportItem, CaseReportRow } from './case-report';
export {
  FILE_NAME_PLACEHOLDERS,
  DEFAULT_FILE_NAME_PATTERN,
  checkFileNamePattern,
  fileNameOf,
} from './file-name';
export type { FileNamePlaceholder, FileNameProblem } from './file-name';
export {
  BUILT_IN_LINE_LISTING_TEMPLATES,
  LINE_LISTING_TYPES,
  lineListingCells,
  lineListingFieldProblem,
} from './line-listing';
export type { BuiltInLineListingTemplate, LineListingTemplateField, LineListingType } from './line-listing';

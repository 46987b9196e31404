/** Intake through import templates: line listings and Excel sheets into case documents. */
export { intakeFields, unitFieldOf } from './fields';
export type { IntakeField, IntakeValueType } from './fields';
export {
  IMPORT_TEMPLATE_KINDS,
  checkImportTemplate,
  convertCell,
  dateFormatProblem,
  parseDate,
} from './template';
export type {
  CellValue,
  Converted,
  ImportTemplateColumn,
  ImportTemplateDefault,
  ImportTemplateDefinition,
  ImportTemplateKind,
  ImportValueMapping,
  IntakeProblem,
} from './template';
export {
  applyDefaults,
  caseKeyOf,
  columnLetter,
  mergeRow,
  missingRequired,
  resolveColumns,
  rowValues,
} from './rows';
export type { CellProblem, ResolvedColumn } from './rows';

/** E2B interchange on the server: reading uploads, exporting validated batches, the XSD check. */
// The public surface first: other modules read these while this module's routes may still be loading.
export { readImportFile, readImportMessages, ImportRefusedError, exportCases } from './service';
export type {
  ImportOutcome,
  ImportedMessage,
  ImportedCase,
  ExportOptions,
  ExportOutcome,
  Refusal,
} from './service';
export { validateR3Xml, validateR3Batches } from './xsd';
export type { XsdError, XsdResult } from './xsd';

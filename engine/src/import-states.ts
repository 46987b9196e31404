/**
 * SPEC 4's states of an E2B import record: the server's import (server/src/imports) records them
 * and the browser's import list filters and shows them. Declared once here for both.
 */

/** Processing states of an import record. */
export const PROCESSING_STATUSES = ['unprocessed', 'processing', 'processed', 'exception'] as const;
export type ProcessingStatus = (typeof PROCESSING_STATUSES)[number];

/** E2B parse states of an import record. */
export const PARSE_STATUSES = ['toBeParsed', 'parsing', 'completed', 'exception'] as const;
export type ParseStatus = (typeof PARSE_STATUSES)[number];

/**
 * States of one report of an import record: waiting, being made a case (generating: claimed by one
 * request while the case is written, a second click is refused), made one, rejected.
 */
export const IMPORT_REPORT_STATUSES = ['pending', 'generating', 'generated', 'rejected'] as const;
export type ImportReportStatus = (typeof IMPORT_REPORT_STATUSES)[number];

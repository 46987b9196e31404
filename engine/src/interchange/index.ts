/**
 * E2B interchange: hardened XML parsing, the declared E2B(R3) mapping walked by one reader and one
 * writer, E2B(R2), and acknowledgements. Pure: the XSD validation (which needs the schema files)
 * lives in server/src/interchange.
 */
export { InterchangeError, isInterchangeError, formatMessage } from './errors';
export type { XmlElement } from './xml/dom';
export { parseXml, decodeXmlBytes, defaultXmlLimits } from './xml/parse';
export type { XmlLimits } from './xml/parse';
export { serializeXml } from './xml/serialize';
export type { E2bBatch, E2bRecord, E2bValue, NullFlavored } from './record';
export { emptyRecord, isNullFlavored } from './record';
export type { MappingTable, MappingElement, MappingGroup, MappingFixed, CompiledMapping } from './mapping';
export { compileMapping } from './mapping';
export { importR3, importR3Tree, exportR3, r3Mapping, r3Profiles, e2bTimestamp } from './r3/index';
export type { R3Import, R3ExportOptions, R3Profile } from './r3/index';
export { dataLeaves, missingLeaves } from './leaves';
export { readAcknowledgement, writeR3Acknowledgement, writeR2Acknowledgement } from './ack';
export type { Acknowledgement, ReportAcknowledgement, AckOptions, BatchAckCode, ReportAckCode } from './ack';
export { detectFormat, EXPORT_FORMATS, RECEIVER_PROFILES } from './format';
export type { ExportFormat, InterchangeFormat, ReceiverProfile } from './format';
export { caseToRecord, recordToCase, caseBinding } from './case-binding';
export type { CaseDocument, RecordToCase } from './case-binding';
export { listZipEntries, readZipEntry, zipXmlEntries, defaultZipLimits } from './zip';
export type { ZipEntry, ZipLimits } from './zip';
export { importR2, importR2Tree, exportR2, r2Mapping } from './r2/index';
export type { R2Import, R2ExportOptions } from './r2/index';

import type { XmlElement } from './xml/dom';

/**
 * The element-id-keyed form of one report (or one batch) that the XML mappers read and write.
 * The case document binding converts it to and from the case schema's properties by their x-e2b ids.
 */
export interface NullFlavored {
  nullFlavor: string;
}

export type E2bValue = string | NullFlavored;

export interface E2bRecord {
  /** Element id -> value (code strings, dates as E2B strings, text, base64 text). */
  values: Record<string, E2bValue>;
  /** Repeating group id (C.2.r, G.k, G.k.4.r ...) -> its instances in document order. */
  groups: Record<string, E2bRecord[]>;
  /**
   * Attributes that came with an element's nodes but are not themselves E2B elements (displayName,
   * mediaType, representation, compression ...), keyed `<element id>/<step index>`, `.` for the group's
   * own node; written back so that a received message re-exports faithfully.
   */
  attrs?: Record<string, Record<string, string>>;
  /**
   * Parts of the message under this instance that no mapping entry describes, kept verbatim with the
   * path (from the instance's node) of the node they hang from, so that nothing received is lost.
   */
  fragments?: { anchor: string; node: XmlElement }[];
}

export const emptyRecord = (): E2bRecord => ({ values: {}, groups: {} });

export const isNullFlavored = (v: unknown): v is NullFlavored =>
  typeof v === 'object' && v !== null && typeof (v as NullFlavored).nullFlavor === 'string';

/** A batch: N.1 header values, and one record per report (N.2.r headers and C..H). */
export interface E2bBatch {
  format: 'r3' | 'r2';
  /** The regional profile the batch was read with or is written for (ich, fda, ema, nmpa ...). */
  profile?: string;
  header: E2bRecord;
  reports: E2bRecord[];
}

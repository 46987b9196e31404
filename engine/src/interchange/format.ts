import { InterchangeError } from './errors';
import type { XmlElement } from './xml/dom';

export type InterchangeFormat = 'r3' | 'r2' | 'ack-r3' | 'ack-r2';

/** The E2B versions a receiver takes its files in. */
export const EXPORT_FORMATS = ['r3', 'r2'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** The regional profile a receiver's files are built and checked by. */
export const RECEIVER_PROFILES = ['ich', 'fda', 'nmpa', 'ema'] as const;
export type ReceiverProfile = (typeof RECEIVER_PROFILES)[number];

/** Names the kind of E2B document by its root, refusing anything else (hybrids included). */
export function detectFormat(root: XmlElement): InterchangeFormat {
  const ns = root.attrs.xmlns;
  if (root.name === 'MCCI_IN200100UV01' && ns === 'urn:hl7-org:v3') return 'r3';
  if (root.name === 'MCCI_IN200101UV01' && ns === 'urn:hl7-org:v3') return 'ack-r3';
  // R2 (ICH ICSR DTD 2.1) has no namespace and opens with its message header.
  const r2Header = root.children[0]?.name === 'ichicsrmessageheader';
  if (root.name === 'ichicsr' && ns === undefined && r2Header) return 'r2';
  if (root.name === 'ichicsrack' && ns === undefined && r2Header) return 'ack-r2';
  throw new InterchangeError('format.unknown', { root: root.name });
}

import { InterchangeError } from './errors';
import type { XmlElement } from './xml/dom';

export type InterchangeFormat = 'r3' | 'r2' | 'ack-r3' | 'ack-r2';

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

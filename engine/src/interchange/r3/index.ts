import r3Table from '../../../../schemas/e2b/mapping/r3.json';
import xsdOrder from '../../../../schemas/e2b/mapping/r3-xsd-order.json';
import type { CompiledMapping, MappingTable } from '../mapping';
import { compileMapping } from '../mapping';
import type { E2bBatch } from '../record';
import { InterchangeError } from '../errors';
import type { XmlElement } from '../xml/dom';
import type { XmlLimits } from '../xml/parse';
import { parseXml } from '../xml/parse';
import type { XsdOrder } from '../xml/order';
import { serializeXml } from '../xml/serialize';
import { readR3Batch } from './read';
import { writeR3Batch } from './write';

let compiled: CompiledMapping | undefined;

/** The declared E2B(R3) mapping (schemas/e2b/mapping/r3.json), compiled once. */
export function r3Mapping(): CompiledMapping {
  compiled ??= compileMapping(r3Table as unknown as MappingTable);
  return compiled;
}

export interface R3Import {
  batch: E2bBatch;
  /** Leaves of the message that no mapping entry accounts for (each one would be lost on export). */
  unmapped: string[];
}

/** Reads an already parsed MCCI_IN200100UV01 batch. */
export function importR3Tree(root: XmlElement): R3Import {
  if (root.name !== 'MCCI_IN200100UV01') throw new InterchangeError('r3.notBatch', { root: root.name });
  return readR3Batch(root, r3Mapping());
}

/** Parses (hardened) and reads an E2B(R3) batch. */
export function importR3(xml: string | Uint8Array, limits?: Partial<XmlLimits>): R3Import {
  return importR3Tree(parseXml(xml, limits));
}

/** Writes a batch as E2B(R3) XML (children in XSD order). Validate it with the XSD before sending. */
export function exportR3(batch: E2bBatch): string {
  return serializeXml(writeR3Batch(batch, r3Mapping(), xsdOrder as unknown as XsdOrder));
}

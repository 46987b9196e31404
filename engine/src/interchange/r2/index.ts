import r2Table from '../../../../schemas/e2b/mapping/r2.json';
import type { CompiledMapping, MappingTable } from '../mapping';
import { compileMapping } from '../mapping';
import type { E2bBatch } from '../record';
import { InterchangeError } from '../errors';
import type { XmlElement } from '../xml/dom';
import type { XmlLimits } from '../xml/parse';
import { parseXml } from '../xml/parse';
import { sortByNames } from '../xml/order';
import { serializeXml } from '../xml/serialize';
import { readR3Batch } from '../r3/read';
import { writeBatch } from '../r3/write';

let compiled: CompiledMapping | undefined;

/** The declared E2B(R2) <-> R3 correspondence (schemas/e2b/mapping/r2.json), compiled once. */
export function r2Mapping(): CompiledMapping {
  compiled ??= compileMapping(r2Table as unknown as MappingTable);
  return compiled;
}

export interface R2Import {
  batch: E2bBatch;
  unmapped: string[];
}

/** Reads an already parsed ichicsr message: records keyed by R3 element ids (R2-only fields as R2:*). */
export function importR2Tree(root: XmlElement): R2Import {
  if (root.name !== 'ichicsr') throw new InterchangeError('r2.notIchicsr', { root: root.name });
  const { batch, unmapped } = readR3Batch(root, r2Mapping());
  if (batch.reports.length === 0) throw new InterchangeError('r3.noReports');
  return { batch: { ...batch, format: 'r2' }, unmapped };
}

export function importR2(xml: string | Uint8Array, limits?: Partial<XmlLimits>): R2Import {
  return importR2Tree(parseXml(xml, limits));
}

export interface R2ExportOptions {
  senderId?: string;
  receiverId?: string;
  batchId?: string;
  now?: Date;
}

/** Writes records (from R2 or R3) as an ichicsr message (ICH ICSR DTD 2.1, elements in DTD order). */
export function exportR2(batch: E2bBatch, options: R2ExportOptions = {}): string {
  const header = { ...batch.header, values: { ...batch.header.values } };
  const v = header.values;
  v['R2:ichicsrmessageheader/messagetype'] ??= 'ichicsr';
  v['R2:ichicsrmessageheader/messageformatversion'] ??= '2.1';
  v['R2:ichicsrmessageheader/messageformatrelease'] ??= '1.0';
  if (options.senderId) v['N.1.3'] = options.senderId;
  if (options.receiverId) v['N.1.4'] = options.receiverId;
  if (options.batchId) v['N.1.2'] = options.batchId;
  if (options.now) v['N.1.5'] = options.now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const root: XmlElement = { name: 'ichicsr', attrs: { lang: 'en' }, children: [] };
  const mapping = r2Mapping();
  writeBatch({ ...batch, header }, mapping, root);
  if (mapping.order) sortByNames(root, mapping.order);
  return serializeXml(root).replace('?>\n', '?>\n<!DOCTYPE ichicsr SYSTEM "ich-icsr-v2-1.dtd">\n');
}

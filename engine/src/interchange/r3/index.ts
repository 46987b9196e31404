import r3Table from '../../../../schemas/e2b/mapping/r3.json';
import xsdOrder from '../../../../schemas/e2b/mapping/r3-xsd-order.json';
import type { CompiledMapping, MappingTable } from '../mapping';
import { compileMapping } from '../mapping';
import type { E2bBatch, E2bRecord } from '../record';
import { InterchangeError } from '../errors';
import type { XmlElement } from '../xml/dom';
import type { XmlLimits } from '../xml/parse';
import { parseXml } from '../xml/parse';
import type { XsdOrder } from '../xml/order';
import { serializeXml } from '../xml/serialize';
import { readR3Batch } from './read';
import { writeR3Batch } from './write';

/** A receiver profile, declared in schemas/e2b/mapping/r3-overrides.json (`profiles`). */
export interface R3Profile {
  label: string;
  /**
   * Regional element id markers written for this receiver (other regions' elements are left out):
   * an id starting with one (FDA.C.1.12) or holding it as an inner segment (NMPA's C.1.CN.1).
   */
  regionalPrefixes: string[];
  batchReceiver: string | null;
  batchReceivers?: string[];
  messageReceiver: string | null;
  messageReceivers?: string[];
  /** Real OID -> the identifier this profile's files use instead (ICH BFC draft test files). */
  oidAliases?: Record<string, string>;
}

let compiled: CompiledMapping | undefined;

/** The declared E2B(R3) mapping (schemas/e2b/mapping/r3.json), compiled once. */
export function r3Mapping(): CompiledMapping {
  compiled ??= compileMapping(r3Table as unknown as MappingTable);
  return compiled;
}

export const r3Profiles = (): Record<string, R3Profile> =>
  (r3Table as unknown as { profiles: Record<string, R3Profile> }).profiles;

// FDA's ids start with their region; NMPA's guide names its elements with an inner CN segment.
const regional = /^(FDA|NMPA|EMA|CN)\.|\.CN(\.|$)/;
const ofRegion = (id: string, marker: string): boolean => id.startsWith(marker) || id.includes(`.${marker}`);

export interface R3Import {
  batch: E2bBatch;
  /** Leaves of the message that no mapping entry accounts for (each one would be lost on export). */
  unmapped: string[];
}

function rewriteOids(root: XmlElement, map: Map<string, string>): number {
  let changed = 0;
  const walk = (node: XmlElement): void => {
    for (const attr of ['root', 'codeSystem']) {
      const value = node.attrs[attr];
      const replacement = value === undefined ? undefined : map.get(value);
      if (replacement !== undefined) {
        node.attrs[attr] = replacement;
        changed++;
      }
    }
    for (const child of node.children) walk(child);
  };
  walk(root);
  return changed;
}

/** Reads an already parsed MCCI_IN200100UV01 batch (the tree is normalised in place). */
export function importR3Tree(root: XmlElement): R3Import {
  if (root.name !== 'MCCI_IN200100UV01') throw new InterchangeError('r3.notBatch', { root: root.name });
  // Files written with a profile's placeholder OIDs are read as the real OIDs they stand for.
  let profile: string | undefined;
  for (const [id, p] of Object.entries(r3Profiles())) {
    if (!p.oidAliases) continue;
    const reverse = new Map(Object.entries(p.oidAliases).map(([oid, alias]) => [alias, oid]));
    if (rewriteOids(root, reverse) > 0) profile = id;
  }
  const result = readR3Batch(root, r3Mapping());
  if (result.batch.reports.length === 0) throw new InterchangeError('r3.noReports');
  // Otherwise the receiver names the region (ZZFDA -> fda, EVHUMAN -> ema, CDE -> nmpa).
  const receiver = result.batch.header.values['N.1.4'];
  profile ??= Object.entries(r3Profiles()).find(
    ([, p]) =>
      typeof receiver === 'string' && (p.batchReceiver === receiver || p.batchReceivers?.includes(receiver)),
  )?.[0];
  if (profile) result.batch.profile = profile;
  const aliases = profile ? r3Profiles()[profile]?.oidAliases : undefined;
  if (aliases) {
    // Unmapped leaves are reported as the file wrote them.
    result.unmapped = result.unmapped.map((leaf) =>
      leaf.replace(/\/@(root|codeSystem)=(.*)$/, (whole, attr: string, oid: string) =>
        aliases[oid] ? `/@${attr}=${aliases[oid]}` : whole,
      ),
    );
  }
  return result;
}

/** Parses (hardened) and reads an E2B(R3) batch. */
export function importR3(xml: string | Uint8Array, limits?: Partial<XmlLimits>): R3Import {
  return importR3Tree(parseXml(xml, limits));
}

export interface R3ExportOptions {
  /** Receiver profile: ich (default), fda, ema, nmpa, or one declared in the mapping's profiles. */
  profile?: string;
  /**
   * Transmission time (N.1.5, N.2.r.4); the values the batch carries are kept when absent. The
   * engine reads no clock: a batch that carries no N.1.5 needs it.
   */
  now?: Date;
  batchId?: string;
  senderId?: string;
  receiverId?: string;
  messageReceiverId?: string;
}

/** E2B date-time (CCYYMMDDhhmmss+0000) of an instant, in UTC. */
export function e2bTimestamp(date: Date): string {
  return `${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}+0000`;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Fills the N.1 and N.2.r headers an XSD-valid batch needs, from options, profile and content. */
function withHeaders(batch: E2bBatch, profile: R3Profile, options: R3ExportOptions): E2bBatch {
  const h = { ...batch.header.values };
  const now = options.now ? e2bTimestamp(options.now) : undefined;
  h['N.1.1'] ??= '1';
  const sender = options.senderId ?? text(h['N.1.3']) ?? text(batch.reports[0]?.values['N.2.r.2']);
  if (!sender) throw new InterchangeError('export.senderRequired');
  h['N.1.3'] = sender;
  const receiver = options.receiverId ?? text(h['N.1.4']) ?? profile.batchReceiver ?? undefined;
  if (!receiver) throw new InterchangeError('export.receiverRequired');
  h['N.1.4'] = receiver;
  const created = now ?? text(h['N.1.5']);
  if (!created)
    throw new Error("exportR3: the batch carries no N.1.5; pass options.now (the caller's clock)");
  h['N.1.5'] = created;
  h['N.1.2'] = options.batchId ?? text(h['N.1.2']) ?? `${sender}-${created.slice(0, 14)}`;
  const reports = batch.reports.map((report): E2bRecord => {
    const v = { ...report.values };
    v['N.2.r.1'] ??= v['C.1.1'] ?? `${h['N.1.2']}-${batch.reports.indexOf(report) + 1}`;
    v['N.2.r.2'] = options.senderId ?? text(v['N.2.r.2']) ?? sender;
    v['N.2.r.3'] = options.messageReceiverId ?? text(v['N.2.r.3']) ?? profile.messageReceiver ?? receiver;
    v['N.2.r.4'] = now ?? text(v['N.2.r.4']) ?? created;
    return { ...report, values: v };
  });
  return { ...batch, header: { ...batch.header, values: h }, reports };
}

/** Drops elements of other regions than the profile's, at every level of a record. */
function forRegion(record: E2bRecord, allowed: string[]): E2bRecord {
  const keep = (id: string): boolean => !regional.test(id) || allowed.some((p) => ofRegion(id, p));
  const values = Object.fromEntries(Object.entries(record.values).filter(([id]) => keep(id)));
  const groups = Object.fromEntries(
    Object.entries(record.groups)
      .filter(([id]) => keep(id))
      .map(([id, list]) => [id, list.map((r) => forRegion(r, allowed))]),
  );
  return { ...record, values, groups };
}

/**
 * Writes a batch as E2B(R3) XML for a receiver profile (children in XSD order). The server
 * validates the result against the XSD before it leaves.
 */
export function exportR3(batch: E2bBatch, options: R3ExportOptions = {}): string {
  const profileId = options.profile ?? batch.profile ?? 'ich';
  const profile = r3Profiles()[profileId];
  if (!profile) throw new InterchangeError('export.unknownProfile', { profile: profileId });
  const regionalBatch: E2bBatch = {
    ...batch,
    header: forRegion(batch.header, profile.regionalPrefixes),
    reports: batch.reports.map((r) => forRegion(r, profile.regionalPrefixes)),
  };
  const root = writeR3Batch(
    withHeaders(regionalBatch, profile, options),
    r3Mapping(),
    xsdOrder as unknown as XsdOrder,
  );
  if (profile.oidAliases) rewriteOids(root, new Map(Object.entries(profile.oidAliases)));
  return serializeXml(root);
}

/**
 * Pre-send business-rule packs (schemas/rules/presend/packs.json): the rules of a receiver's
 * authority run on the E2B message about to be sent, not on the case document it was written
 * from. The message is read back (R3 or R2) into one document per report - the case as the
 * receiver will read it, plus its batch (N.1) and message (N.2.r) headers under `messageHeader` -
 * and the pack's rule sets run on it through the ordinary rule interpreter. Each finding names
 * the rule, the E2B id, the report and the XPath of the element in the R3 message.
 */
import packsFile from '../../../schemas/rules/presend/packs.json';
import fdaMessage from '../../../schemas/rules/presend/fda-message.json';
import nmpaMessage from '../../../schemas/rules/presend/nmpa-message.json';
import ichMessage from '../../../schemas/rules/presend/ich-message.json';
import { baseConfiguration } from '../configuration/base';
import { MESSAGE_HEADER_SCHEMA_ID, messageHeaderSchema } from '../case-model';
import { walkFields } from '../schema-registry/schema-set';
import type { BilingualText, FieldInfo } from '../schema-registry/types';
import type { Finding, Severity } from '../validation/finding';
import { detectFormat } from '../interchange/format';
import { parseXml } from '../interchange/xml/parse';
import type { XmlLimits } from '../interchange/xml/parse';
import { importR3Tree, r3Mapping } from '../interchange/r3/index';
import { importR2Tree } from '../interchange/r2/index';
import { recordToCase } from '../interchange/case-binding';
import type { E2bBatch, E2bRecord, E2bValue } from '../interchange/record';
import type { CompiledGroup } from '../interchange/mapping';
import { InterchangeError } from '../interchange/errors';
import { buildFieldIndex } from './field-index';
import { compileRules, planRules, runPlan } from './compile';
import type { CompiledRule, CompiledRules, RulePlan } from './compile';
import { ruleSets } from './profiles';
import type { RuleSet } from './types';

export interface PresendPack {
  label: BilingualText;
  /** Rule set names: a case profile (schemas/rules/<name>.json) or a message set of schemas/rules/presend. */
  ruleSets: string[];
  /** The E2B versions the rules are written for; a file of another version is not checked by them. */
  formats: ('r3' | 'r2')[];
  source: string;
  /** How many rules the source document has, by level (FDA's spreadsheet). */
  sourceRules?: { rejection: number; warning: number };
}

const file = packsFile as { packs: Record<string, PresendPack>; notRun: Record<string, string> };
export const presendPacks = file.packs;
/**
 * Rules of the case-level sets that no pack runs on a message, each with why: what they test cannot
 * be judged on the XML (they stay in the case-level profiles).
 */
export const notRunOnMessages: Readonly<Record<string, string>> = file.notRun;
export type PresendPackId = keyof typeof presendPacks & string;

/**
 * The message-level sets of schemas/rules/presend, by file name: rules on the batch and message
 * headers, and rules every message to the receiver must meet though a case need not (a case is
 * checked against every profile whatever its receivers).
 */
const messageSets: Record<string, RuleSet> = {
  'fda-message': fdaMessage as RuleSet,
  'ich-message': ichMessage as RuleSet,
  'nmpa-message': nmpaMessage as RuleSet,
};

/** The rule sets a pack names, with their file name. */
function setsOf(pack: PresendPack): { name: string; set: RuleSet }[] {
  return pack.ruleSets.map((name) => {
    const set = messageSets[name] ?? ruleSets.find((s) => s.profile === name);
    if (!set) throw new Error(`presend pack: unknown rule set ${name}`);
    return { name, set };
  });
}

/** Where the headers sit in the checked document. */
const HEADER_KEY = 'messageHeader';

let fieldsCache: FieldInfo[] | undefined;
/** The case model's fields and the batch and message header fields under `messageHeader`. */
export function presendFields(): FieldInfo[] {
  if (fieldsCache) return fieldsCache;
  const base = baseConfiguration();
  const header = walkFields(
    { [MESSAGE_HEADER_SCHEMA_ID]: messageHeaderSchema },
    MESSAGE_HEADER_SCHEMA_ID,
  ).map((f) => ({ ...f, path: `${HEADER_KEY}.${f.path}` }));
  fieldsCache = [...walkFields(base.schemas, base.rootId), ...header];
  return fieldsCache;
}

interface CompiledPack {
  compiled: CompiledRules[];
  /** Every set of the pack, for R3 files. */
  plan: RulePlan;
  /** The case-level sets only: the message sets state R3 rules (headers, regional elements) an R2 file does not have. */
  casePlan: RulePlan;
}
const compiledPacks = new Map<string, CompiledPack>();

/** A pack compiled once: its rules, and the problems of any rule that does not fit the model (none expected). */
export function compiledPack(id: string): CompiledPack {
  const hit = compiledPacks.get(id);
  if (hit) return hit;
  const pack = presendPacks[id];
  if (!pack) throw new InterchangeError('export.unknownProfile', { profile: id });
  const index = buildFieldIndex(presendFields());
  const sets = setsOf(pack);
  const compiled = sets.map(({ set }) => {
    const made = compileRules(set.rules, index);
    const runs = (r: CompiledRule): boolean => notRunOnMessages[r.rule.id] === undefined;
    const byField = new Map([...made.byField].map(([path, rules]) => [path, rules.filter(runs)]));
    return { ...made, rules: made.rules.filter(runs), byField };
  });
  const made = {
    compiled,
    plan: planRules(compiled.flatMap((c) => c.rules)),
    casePlan: planRules(compiled.filter((_, i) => !messageSets[sets[i]!.name]).flatMap((c) => c.rules)),
  };
  compiledPacks.set(id, made);
  return made;
}

/** Rules a pack runs, by level. */
export function packRuleCount(id: string): { rejection: number; warning: number } {
  const rules = compiledPack(id).compiled.flatMap((c) => c.rules);
  const rejection = rules.filter((r) => r.rule.severity === 'error').length;
  return { rejection, warning: rules.length - rejection };
}

export interface PresendFinding {
  ruleId: string;
  /** error: the receiver rejects the message; warning: it accepts it with a warning. */
  severity: Severity;
  e2b: string | null;
  /** The element in the R3 message: /MCCI_IN200100UV01/PORR_IN049016UV[n]/... (mapping path). */
  xpath: string;
  /** 1-based report in the batch, with its message id (N.2.r.1) and C.1.1. */
  report: number;
  messageId: string | null;
  reportCode: string | null;
  /** JSON pointer into the report's document (case fields, or /messageHeader/...). */
  path: string;
  messageKey: string;
  message: BilingualText;
}

export interface PresendResult {
  pack: string;
  format: 'r3' | 'r2';
  /** False when the pack's rules are not written for the file's E2B version (nothing was checked). */
  applicable: boolean;
  reports: number;
  errorCount: number;
  warningCount: number;
  findings: PresendFinding[];
}

/** The XPath of an element in the R3 message (its mapping path), the report's position filled in. */
function xpathOf(e2b: string | null, report: number): string {
  const mapping = r3Mapping();
  const element = e2b ? mapping.elements.get(e2b) : undefined;
  const root = `/${mapping.root}`;
  if (!element) return `${root}/${mapping.report.path}[${report}]`;
  const chain: string[] = [element.path];
  for (
    let group: CompiledGroup | undefined = mapping.groups.get(element.group);
    group;
    group = group.parent
  ) {
    if (group.id === 'batch') break;
    chain.unshift(group.id === 'report' ? `${group.path}[${report}]` : group.path);
  }
  return [root, ...chain].join('/');
}

const text = (v: E2bValue | undefined): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The header document of one report: N.1 of the batch, N.2.r of this report, by the header schema's names. */
function headerDocument(batch: E2bBatch, values: Record<string, E2bValue>): Record<string, unknown> {
  const out: { batch: Record<string, unknown>; messages: Record<string, unknown>[] } = {
    batch: {},
    messages: [{}],
  };
  for (const field of presendFields()) {
    if (!field.e2b?.startsWith('N.') || !field.path.startsWith(HEADER_KEY)) continue;
    const name = field.path.slice(field.path.lastIndexOf('.') + 1);
    const value = field.e2b.startsWith('N.1.') ? batch.header.values[field.e2b] : values[field.e2b];
    if (value === undefined) continue;
    if (field.e2b.startsWith('N.1.')) out.batch[name] = value;
    else (out.messages[0] as Record<string, unknown>)[name] = value;
  }
  return out;
}

/**
 * A test result with a qualifier ("LE 10 mg/dl") is written as an IVL_PQ interval, which the R3
 * mapping does not bind (it is kept as a fragment and re-exported verbatim). The receiver reads it
 * as F.r.3.2/F.r.3.3, so the check does too: the interval's bound value and unit.
 */
function withIntervalResults(record: E2bRecord): E2bRecord {
  const tests = record.groups['F.r'];
  if (!tests) return record;
  const read = tests.map((test) => {
    if (test.values['F.r.3.2'] !== undefined) return test;
    const interval = test.fragments?.find(
      (f) => f.node.name === 'value' && f.node.attrs['xsi:type'] === 'IVL_PQ',
    )?.node;
    const bound = interval?.children.find((c) => c.attrs.value !== undefined);
    if (!bound) return test;
    const values: Record<string, E2bValue> = { ...test.values, 'F.r.3.2': bound.attrs.value as string };
    if (bound.attrs.unit) values['F.r.3.3'] = bound.attrs.unit;
    return { ...test, values };
  });
  return { ...record, groups: { ...record.groups, 'F.r': read } };
}

/**
 * What the sender knows of the message that the XML does not say. FDA R0101 (no C.1.11.1 on an
 * initial report) needs whether each report is initial *to this receiver*: FDA decides that from its
 * own records (has it had this case before), the sender from its earlier transmissions of the case to
 * the receiver - not from the case's own version type (a nullification of an initial case is not
 * an initial report to a receiver that had it). Per report, by its position in the message (0-based);
 * a report without one is not evaluated by the rule.
 */
export interface PresendContext {
  versionTypes?: readonly ('initial' | 'followUp' | null)[];
}

/** Reads the message (hardened parser) and runs the pack on each of its reports. */
export function checkMessage(
  xml: string | Uint8Array,
  packId: string,
  limits?: Partial<XmlLimits>,
  context: PresendContext = {},
): PresendResult {
  const pack = compiledPack(packId);
  const root = parseXml(xml, limits);
  const format = detectFormat(root);
  if (format !== 'r3' && format !== 'r2') throw new InterchangeError('format.unknown', { root: root.name });
  const applicable = (presendPacks[packId]?.formats ?? []).includes(format);
  const plan = format === 'r3' ? pack.plan : pack.casePlan;
  const batch = format === 'r3' ? importR3Tree(root).batch : importR2Tree(root).batch;
  if (!applicable)
    return {
      pack: packId,
      format,
      applicable,
      reports: batch.reports.length,
      errorCount: 0,
      warningCount: 0,
      findings: [],
    };
  const findings: PresendFinding[] = [];
  batch.reports.forEach((record, i) => {
    const versionType = context.versionTypes?.[i];
    const doc: Record<string, unknown> = {
      ...recordToCase(withIntervalResults(record)).case,
      ...(versionType ? { state: { versionType } } : {}),
      [HEADER_KEY]: headerDocument(batch, record.values),
    };
    const raw: Finding[] = [];
    runPlan(plan, doc, raw);
    const messageId = text(record.values['N.2.r.1']);
    const reportCode = text(record.values['C.1.1']);
    for (const f of raw)
      findings.push({
        ruleId: f.ruleId,
        severity: f.severity,
        e2b: f.e2b ?? null,
        xpath: xpathOf(f.e2b ?? null, i + 1),
        report: i + 1,
        messageId,
        reportCode,
        path: f.path,
        messageKey: f.messageKey,
        message: f.message,
      });
  });
  const errorCount = findings.filter((f) => f.severity === 'error').length;
  return {
    pack: packId,
    format,
    applicable,
    reports: batch.reports.length,
    errorCount,
    warningCount: findings.length - errorCount,
    findings,
  };
}

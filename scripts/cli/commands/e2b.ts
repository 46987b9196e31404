/**
 * `npm run -s cli -- e2b import <file.xml|file.zip> --out <dir>`: one case JSON per report.
 * `npm run -s cli -- e2b export <case.json>... --format r3|r2 [--profile ich|fda|nmpa|ema] --out <file.xml>`
 * `npm run -s cli -- e2b ack <ack.xml>`: the parsed acknowledgement as JSON.
 * Exit 0 on success, 1 on refused input (reasons on stderr), 2 on wrong usage.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  caseToRecord,
  detectFormat,
  exportR2,
  exportR3,
  formatMessage,
  importR2Tree,
  importR3Tree,
  isInterchangeError,
  parseXml,
  readAcknowledgement,
  recordToCase,
  zipXmlEntries,
} from '../../../engine/src/interchange/index';
import type { E2bBatch, E2bRecord } from '../../../engine/src/interchange/index';
import { validateR3Xml } from '../../../server/src/interchange/xsd';

export const summary =
  'E2B interchange: import R3/R2 XML or zip to case JSON, export cases as R3/R2, read acknowledgements';

const catalogues = fileURLToPath(new URL('../../../schemas/i18n/interchange/', import.meta.url));
const usage =
  'Usage:\n  e2b import <file.xml|file.zip> --out <dir>\n  e2b export <case.json>... --format r3|r2 [--profile ich|fda|nmpa|ema] [--sender <id>] [--receiver <id>] --out <file.xml>\n  e2b ack <ack.xml>\nOptions: --lang zh|en (messages; default from LANG)';

interface Parsed {
  positional: string[];
  options: Record<string, string>;
}

function parseArgs(args: string[]): Parsed {
  const positional: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg.startsWith('--')) {
      options[arg.slice(2)] = args[i + 1] ?? '';
      i++;
    } else positional.push(arg);
  }
  return { positional, options };
}

function reporter(lang: string): (e: unknown, where?: string) => void {
  const catalogue = JSON.parse(
    readFileSync(`${catalogues}${lang === 'zh' ? 'zh' : 'en'}.json`, 'utf8'),
  ) as Record<string, string>;
  return (e, where) => {
    const prefix = where ? `${where}: ` : '';
    if (isInterchangeError(e))
      console.error(`${prefix}${formatMessage(catalogue, e.key, e.params)} [${e.key}]`);
    else console.error(`${prefix}${e instanceof Error ? e.message : String(e)}`);
  };
}

const safeName = (s: string): string => s.replace(/[^\w.-]+/g, '_').slice(0, 120) || 'case';

function importOne(
  name: string,
  bytes: Uint8Array,
): { id: string; case: Record<string, unknown>; unbound: string[]; unmapped: string[] }[] {
  const root = parseXml(bytes);
  const format = detectFormat(root);
  if (format === 'ack-r3' || format === 'ack-r2')
    throw new Error(`${name} is an acknowledgement: use "e2b ack"`);
  const imported = format === 'r3' ? importR3Tree(root) : importR2Tree(root);
  return imported.batch.reports.map((report, i) => {
    const { case: doc, unbound } = recordToCase(report);
    const id = report.values['C.1.1'];
    // The batch headers travel with each case so that a re-export can keep them.
    doc.e2bBatch = {
      format: imported.batch.format,
      profile: imported.batch.profile,
      header: imported.batch.header,
    };
    return {
      id: typeof id === 'string' ? id : `${basename(name, '.xml')}-${i + 1}`,
      case: doc,
      unbound,
      unmapped: i === 0 ? imported.unmapped : [],
    };
  });
}

async function runImport(p: Parsed, report: (e: unknown, where?: string) => void): Promise<number> {
  const [file] = p.positional;
  const out = p.options.out;
  if (!file || !out) {
    console.error(usage);
    return 2;
  }
  const bytes = new Uint8Array(readFileSync(file));
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  // Everything is read and checked before anything is written: nothing is half-imported.
  const results: ReturnType<typeof importOne> = [];
  try {
    if (isZip) for (const entry of zipXmlEntries(bytes)) results.push(...importOne(entry.name, entry.bytes));
    else results.push(...importOne(file, bytes));
  } catch (e) {
    report(e, file);
    return 1;
  }
  mkdirSync(out, { recursive: true });
  const used = new Set<string>();
  for (const r of results) {
    let name = safeName(r.id);
    for (let n = 2; used.has(name); n++) name = `${safeName(r.id)}-${n}`;
    used.add(name);
    writeFileSync(join(out, `${name}.json`), `${JSON.stringify(r.case, null, 2)}\n`);
    if (r.unbound.length)
      console.error(`${name}: elements kept in e2bCarry (no case property): ${r.unbound.join(', ')}`);
    if (r.unmapped.length)
      console.error(`${name}: ${r.unmapped.length} leaves of the message have no mapping entry`);
  }
  console.log(`${results.length} case(s) written to ${out}`);
  return 0;
}

async function runExport(p: Parsed, report: (e: unknown, where?: string) => void): Promise<number> {
  const format = p.options.format ?? 'r3';
  const out = p.options.out;
  if (p.positional.length === 0 || !out || !['r3', 'r2'].includes(format)) {
    console.error(usage);
    return 2;
  }
  const reports: E2bRecord[] = [];
  let header: E2bBatch['header'] = { values: {}, groups: {} };
  let profile: string | undefined;
  for (const file of p.positional) {
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch (e) {
      report(e, file);
      return 1;
    }
    const carried = doc.e2bBatch as { header?: E2bBatch['header']; profile?: string } | undefined;
    if (carried?.header && reports.length === 0) header = carried.header;
    profile ??= carried?.profile;
    reports.push(caseToRecord(doc));
  }
  const batch: E2bBatch = { format: format as 'r3' | 'r2', header, reports, ...(profile ? { profile } : {}) };
  const options = {
    profile: p.options.profile ?? profile,
    senderId: p.options.sender,
    receiverId: p.options.receiver,
  };
  try {
    if (format === 'r2') {
      writeFileSync(out, exportR2(batch, options));
    } else {
      const xml = exportR3(batch, options);
      const result = await validateR3Xml(xml);
      if (!result.valid) {
        report(new Error(`XSD validation failed (${result.errors.length} errors); nothing written`));
        for (const error of result.errors) console.error(`  line ${error.line ?? '?'}: ${error.message}`);
        return 1;
      }
      writeFileSync(out, xml);
    }
  } catch (e) {
    report(e);
    return 1;
  }
  console.log(`${reports.length} report(s) written to ${out}`);
  return 0;
}

async function runAck(p: Parsed, report: (e: unknown, where?: string) => void): Promise<number> {
  const [file] = p.positional;
  if (!file) {
    console.error(usage);
    return 2;
  }
  try {
    console.log(JSON.stringify(readAcknowledgement(parseXml(new Uint8Array(readFileSync(file)))), null, 2));
    return 0;
  } catch (e) {
    report(e, file);
    return 1;
  }
}

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const parsed = parseArgs(rest);
  const lang = parsed.options.lang ?? (/^zh/i.test(process.env.LANG ?? '') ? 'zh' : 'en');
  const report = reporter(lang);
  if (sub === 'import') return runImport(parsed, report);
  if (sub === 'export') return runExport(parsed, report);
  if (sub === 'ack') return runAck(parsed, report);
  console.error(usage);
  return 2;
}

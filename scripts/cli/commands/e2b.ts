/**
 * `npm run -s cli -- e2b import <file.xml|file.zip> --out <dir>`: one case JSON per report.
 * `npm run -s cli -- e2b export <case.json>... --format r3|r2 [--profile ich|fda|nmpa|ema] --out <file.xml>`
 * `npm run -s cli -- e2b ack <ack.xml>`: the parsed acknowledgement as JSON.
 * `npm run -s cli -- e2b check <file.xml> --profile fda|nmpa|ema|ich`: the pre-send business-rule
 *   pack (schemas/rules/presend) on the file, one JSON line per finding; exit 1 when one is rejection-level.
 * Exit 0 on success, 1 on refused input (reasons on stderr), 2 on wrong usage.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  checkMessage,
  formatMessage,
  isInterchangeError,
  parseXml,
  presendPacks,
  readAcknowledgement,
} from '@pv/engine';
import { exportCases, readImportFile } from '../../../server/src/interchange/index';
import type { Refusal } from '../../../server/src/interchange/index';

export const summary =
  'E2B interchange: import R3/R2 XML or zip to case JSON, export cases as R3/R2, read acknowledgements, check a file against a business-rule pack';

const catalogues = fileURLToPath(new URL('../../../schemas/i18n/interchange/', import.meta.url));
const usage =
  'Usage:\n  e2b import <file.xml|file.zip> --out <dir>\n  e2b export <case.json>... --format r3|r2 [--profile ich|fda|nmpa|ema] [--sender <id>] [--receiver <id>] --out <file.xml>\n  e2b ack <ack.xml>\n  e2b check <file.xml> --profile fda|nmpa|ema|ich\nOptions: --lang zh|en (messages; default from LANG)';

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
  // Refusal keys carry the namespace (`interchange.xml.tooLarge`); the catalogue's keys do not.
  const catalogue = Object.fromEntries(
    Object.entries(
      JSON.parse(readFileSync(`${catalogues}${lang === 'zh' ? 'zh' : 'en'}.json`, 'utf8')) as Record<
        string,
        string
      >,
    ).map(([key, text]) => [`interchange.${key}`, text]),
  );
  return (e, where) => {
    const prefix = where ? `${where}: ` : '';
    const refusal = e as Partial<Refusal>;
    if (isInterchangeError(e) || (typeof refusal.key === 'string' && refusal.params)) {
      const { key, params } = e as Refusal;
      console.error(`${prefix}${formatMessage(catalogue, key, params)} [${key}]`);
    } else console.error(`${prefix}${e instanceof Error ? e.message : String(e)}`);
  };
}

const safeName = (s: string): string => s.replace(/[^\w.-]+/g, '_').slice(0, 120) || 'case';

async function runImport(p: Parsed, report: (e: unknown, where?: string) => void): Promise<number> {
  const [file] = p.positional;
  const out = p.options.out;
  if (!file || !out) {
    console.error(usage);
    return 2;
  }
  // Everything is read and checked before anything is written: nothing is half-imported.
  const outcome = readImportFile(basename(file), new Uint8Array(readFileSync(file)));
  if (!outcome.ok) {
    report(outcome.refusal, outcome.refusal.entry);
    return 1;
  }
  mkdirSync(out, { recursive: true });
  const used = new Set<string>();
  let count = 0;
  for (const message of outcome.messages) {
    if (message.unmapped.length)
      console.error(
        `${message.entry}: ${message.unmapped.length} leaves have no mapping entry (kept verbatim in e2bCarry)`,
      );
    for (const c of message.cases) {
      let name = safeName(c.id);
      for (let n = 2; used.has(name); n++) name = `${safeName(c.id)}-${n}`;
      used.add(name);
      // The batch header travels with the case so that a re-export can keep it.
      const document = {
        ...c.document,
        e2bBatch: { format: message.format, profile: message.profile, header: message.header },
      };
      writeFileSync(join(out, `${name}.json`), `${JSON.stringify(document, null, 2)}\n`);
      if (c.unbound.length)
        console.error(`${name}: elements kept in e2bCarry (no case property): ${c.unbound.join(', ')}`);
      count++;
    }
  }
  console.log(`${count} case(s) written to ${out}`);
  return 0;
}

async function runExport(p: Parsed, report: (e: unknown, where?: string) => void): Promise<number> {
  const format = p.options.format ?? 'r3';
  const out = p.options.out;
  if (p.positional.length === 0 || !out || (format !== 'r3' && format !== 'r2')) {
    console.error(usage);
    return 2;
  }
  const documents: Record<string, unknown>[] = [];
  for (const file of p.positional) {
    try {
      documents.push(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
    } catch (e) {
      report(
        {
          entry: file,
          key: 'interchange.case.invalidJson',
          params: { file, detail: e instanceof Error ? e.message : String(e) },
        },
        file,
      );
      return 1;
    }
  }
  const outcome = await exportCases(documents, {
    format,
    // The batch is transmitted now: the command's run is its transmission time.
    now: new Date(),
    ...(p.options.profile ? { profile: p.options.profile } : {}),
    ...(p.options.sender ? { senderId: p.options.sender } : {}),
    ...(p.options.receiver ? { receiverId: p.options.receiver } : {}),
  });
  if (!outcome.ok) {
    if (outcome.refusal) report(outcome.refusal);
    if (outcome.xsdErrors) {
      report({
        entry: out,
        key: 'interchange.export.xsdInvalid',
        params: { count: outcome.xsdErrors.length },
      });
      for (const error of outcome.xsdErrors) console.error(`  line ${error.line ?? '?'}: ${error.message}`);
    }
    return 1;
  }
  writeFileSync(out, outcome.xml);
  console.log(`${documents.length} report(s) written to ${out}`);
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

/** One JSON line per finding (message in the chosen language); 1 when any is rejection-level. */
function runCheck(p: Parsed, report: (e: unknown, where?: string) => void, lang: string): number {
  const [file] = p.positional;
  const profile = p.options.profile ?? '';
  if (!file || !presendPacks[profile]) {
    console.error(usage);
    return 2;
  }
  try {
    const result = checkMessage(new Uint8Array(readFileSync(file)), profile, { maxBytes: 64 * 1024 * 1024 });
    for (const f of result.findings)
      console.log(
        JSON.stringify({
          ruleId: f.ruleId,
          severity: f.severity,
          e2b: f.e2b,
          xpath: f.xpath,
          report: f.report,
          messageId: f.messageId,
          message: f.message[lang === 'zh' ? 'zh' : 'en'],
        }),
      );
    return result.errorCount > 0 ? 1 : 0;
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
  if (sub === 'check') return runCheck(parsed, report, lang);
  console.error(usage);
  return 2;
}

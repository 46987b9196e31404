/**
 * `npm run -s cli -- stats signals CASES.jsonl --by term|pt|soc [--meddra RELEASE_DIR] [--min-cases 3]
 *  [--include-invalid] [--lang zh|en]`
 *
 * The signal table from case documents (one JSON document a line): one JSON line per suspect drug
 * (G.k.2.2) x event with `drug, event, a, b, c, d, prr, chi2, ror, rorLower, rorUpper, ic, ic025`,
 * counted per case, with the engine code the server uses (engine/src/analytics). A count summary
 * goes to stderr. Exit 0 on success, 1 on refused input (nothing printed), 2 on wrong usage.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import {
  DictionaryFormatError,
  SignalCounter,
  SIGNAL_FIGURES,
  parseMeddraRelease,
  signalTable,
} from '@pv/engine';
import type { MeddraRelease, SignalEventLevel } from '@pv/engine';
import { filesFromDirectory } from '../../../server/src/dictionaries';
import { createTranslator } from '../../../server/src/i18n';
import type { Lang, MessageParams } from '../../../server/src/i18n';

export const summary =
  'signals CASES.jsonl --by term|pt|soc [--meddra DIR] [--min-cases 3]: disproportionality (PRR, ROR, IC) per suspect drug x event';

const LEVELS: readonly SignalEventLevel[] = ['term', 'pt', 'soc'];
const FIELDS = ['drug', 'event', ...SIGNAL_FIGURES];

interface Options {
  file: string;
  by: SignalEventLevel;
  meddraDir?: string;
  minCases: number;
  includeInvalid: boolean;
}

type Say = (key: string, params?: MessageParams) => string;

function parseArgs(args: string[], say: Say): Options | string {
  const positional: string[] = [];
  let by: string | undefined;
  let meddraDir: string | undefined;
  let minCases = 3;
  let includeInvalid = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--by') by = args[++i];
    else if (arg === '--meddra') meddraDir = args[++i];
    else if (arg === '--include-invalid') includeInvalid = true;
    else if (arg === '--lang') i++;
    else if (arg === '--min-cases') {
      const value = args[++i] ?? '';
      if (!/^[1-9]\d*$/.test(value)) return say('cli.badMinCases', { value });
      minCases = Number(value);
    } else if (arg.startsWith('--')) return say('cli.unknownOption', { option: arg });
    else positional.push(arg);
  }
  const [file] = positional;
  if (!file || positional.length > 1) return say('cli.usage');
  if (!LEVELS.includes(by as SignalEventLevel)) return say('cli.badBy');
  return { file, by: by as SignalEventLevel, meddraDir, minCases, includeInvalid };
}

function languageOf(args: string[], env: Record<string, string | undefined>): Lang {
  const at = args.indexOf('--lang');
  const chosen = at >= 0 ? args[at + 1] : env.LANG;
  return chosen?.startsWith('zh') ? 'zh' : 'en';
}

export async function run(
  args: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const lang = languageOf(args, env);
  const translator = createTranslator();
  const say: Say = (key, params) => translator.t(lang, `analytics.${key}`, params);
  const [action, ...rest] = args;
  if (action !== 'signals') {
    console.error(`${say('cli.unknownAction', { action: action ?? '' })}\n${say('cli.usage')}`);
    return 2;
  }
  const options = parseArgs(rest, say);
  if (typeof options === 'string') {
    console.error(options === say('cli.usage') ? options : `${options}\n${say('cli.usage')}`);
    return 2;
  }

  let meddra: MeddraRelease | undefined;
  if (options.meddraDir !== undefined) {
    const dir = options.meddraDir;
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      console.error(say('cli.noRelease', { dir }));
      return 1;
    }
    try {
      meddra = parseMeddraRelease(filesFromDirectory(dir));
    } catch (error) {
      if (!(error instanceof DictionaryFormatError)) throw error;
      console.error(say('cli.releaseRefused', { dir }));
      for (const issue of error.issues) {
        const where = issue.line > 0 ? `${issue.file}:${issue.line}` : issue.file;
        console.error(`  ${where}: ${translator.t(lang, `dictionaries.${issue.messageKey}`, issue.params)}`);
      }
      return 1;
    }
  }

  if (!existsSync(options.file) || !statSync(options.file).isFile()) {
    console.error(say('cli.noFile', { file: options.file, detail: 'ENOENT' }));
    return 1;
  }
  // Line by line, so that a large export is never held whole: only the counts are kept.
  const counter = new SignalCounter({ by: options.by, meddra, includeInvalid: options.includeInvalid });
  const lines = createInterface({ input: createReadStream(options.file, 'utf8'), crlfDelay: Infinity });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    if (line.trim() === '') continue;
    let document: unknown;
    try {
      document = JSON.parse(line);
    } catch (error) {
      document = error;
    }
    if (
      typeof document !== 'object' ||
      document === null ||
      Array.isArray(document) ||
      document instanceof Error
    ) {
      const detail = document instanceof Error ? document.message : typeof document;
      console.error(say('cli.badLine', { file: options.file, line: lineNumber, detail }));
      return 1;
    }
    counter.add(document);
  }

  const counts = counter.result(options.minCases);
  for (const row of signalTable(counts)) {
    const record = row as unknown as Record<string, unknown>;
    console.log(JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, record[field]]))));
  }
  console.error(
    say('cli.summary', {
      cases: counts.cases,
      skipped: counts.skippedCases,
      unmapped: counts.unmappedEvents,
      pairs: counts.pairs.length,
    }),
  );
  return 0;
}

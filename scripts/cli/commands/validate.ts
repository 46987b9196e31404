/**
 * `npm run -s cli -- validate <case.json> [--profile ich|fda|nmpa|ema] [--json] [--lang zh|en]`
 *
 * Validates a case document against the base configuration (case schema, product rules and the
 * regulator profile; without --profile every profile runs). Exit 0: no error (warnings allowed);
 * 1: errors; 2: unusable input (unreadable file, bad JSON, unknown option).
 */
import { readFileSync } from 'node:fs';
import { baseConfiguration, profilesFor, resolveConfiguration, validateCase } from '@pv/engine';
import type { Finding, RuleProfile } from '@pv/engine';

export const summary = 'Validate a case document (JSON) against the case schema and rule profiles';

const REGIONS = ['ich', 'fda', 'nmpa', 'ema'] as const;
type Region = (typeof REGIONS)[number];

const USAGE =
  'Usage: npm run -s cli -- validate <case.json> [--profile ich|fda|nmpa|ema] [--json] [--lang zh|en]';

interface Options {
  file: string;
  region?: Region;
  json: boolean;
  lang: 'zh' | 'en';
}

function parseArgs(args: string[]): Options | string {
  let file: string | undefined;
  let region: Region | undefined;
  let json = false;
  let lang: 'zh' | 'en' = 'zh';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--json') json = true;
    else if (arg === '--profile' || arg.startsWith('--profile=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++i];
      if (!REGIONS.includes(value as Region))
        return `Unknown profile "${value ?? ''}": use one of ${REGIONS.join(', ')}`;
      region = value as Region;
    } else if (arg === '--lang' || arg.startsWith('--lang=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++i];
      if (value !== 'zh' && value !== 'en') return `Unknown language "${value ?? ''}": use zh or en`;
      lang = value;
    } else if (arg.startsWith('--')) return `Unknown option ${arg}`;
    else if (file === undefined) file = arg;
    else return `Only one case file at a time (got "${file}" and "${arg}")`;
  }
  if (!file) return 'No case file given';
  return { file, ...(region ? { region } : {}), json, lang };
}

function line(finding: Finding, lang: 'zh' | 'en'): string {
  const severity = finding.severity === 'error' ? 'ERROR  ' : 'WARNING';
  return `${severity} ${finding.path || '/'}${finding.e2b ? ` [${finding.e2b}]` : ''} ${finding.ruleId}: ${finding.message[lang]}`;
}

export async function run(args: string[]): Promise<number> {
  const options = parseArgs(args);
  if (typeof options === 'string') {
    console.error(`${options}\n${USAGE}`);
    return 2;
  }
  let text: string;
  try {
    text = readFileSync(options.file, 'utf8');
  } catch (error) {
    console.error(
      `Cannot read ${options.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
    return 2;
  }
  let caseDoc: unknown;
  try {
    caseDoc = JSON.parse(text);
  } catch (error) {
    console.error(`${options.file} is not valid JSON: ${(error as Error).message}`);
    return 2;
  }
  if (caseDoc === null || typeof caseDoc !== 'object' || Array.isArray(caseDoc)) {
    console.error(`${options.file} does not hold a case document (a JSON object)`);
    return 2;
  }
  const profiles: RuleProfile[] | undefined = options.region ? profilesFor(options.region) : undefined;
  const result = validateCase(
    resolveConfiguration(baseConfiguration()),
    caseDoc,
    // "Not in the future" as of the moment the command runs.
    { now: new Date(), ...(profiles ? { profiles } : {}) },
  );
  if (options.json) {
    console.log(JSON.stringify({ file: options.file, profiles: profiles ?? 'all', ...result }, null, 2));
  } else {
    for (const finding of result.findings) console.log(line(finding, options.lang));
    console.log(
      options.lang === 'zh'
        ? `${options.file}：${result.errorCount} 个错误，${result.warningCount} 个警告`
        : `${options.file}: ${result.errorCount} error(s), ${result.warningCount} warning(s)`,
    );
  }
  return result.errorCount > 0 ? 1 : 0;
}

/**
 * The data check of an imported report before it becomes a case (SPEC 5 and 8): the case rules of
 * the chosen template (the project's published configuration) with the rule profile of the
 * message's region, and the coded terms against the chosen MedDRA and WHODrug releases. Wrong
 * values block the import; mandatory values still missing are listed and completed in case entry
 * (the case module saves them after confirmation too); dictionary mismatches are listed for the coder.
 */
import { recodeMeddraTerms } from '@pv/engine';
import type { CodedMeddraTerm } from '@pv/engine';
import { isMissing } from '../cases';
import { ConfigurationService } from '../configuration';
import { dictionaryService } from '../dictionaries';
import type { ModuleDeps } from '../http';
import type { TenantHandle } from '../store';
import type { ImportRecord } from './collections';
import { leaves } from './compare';

type Doc = Record<string, unknown>;

/** Rule profiles of the engine; a message from elsewhere is checked with ICH's. */
const REGIONAL_PROFILES = new Set(['ich', 'fda', 'nmpa', 'ema']);

export type ProblemKind = 'invalid' | 'missing' | 'dictionary' | 'warning';

export interface DataProblem {
  kind: ProblemKind;
  path: string;
  e2b?: string;
  ruleId: string;
  messageKey: string;
  params: Record<string, string | number>;
  message: { zh: string; en: string };
}

export interface DataCheck {
  /** True when nothing blocks the import. */
  passed: boolean;
  blockingCount: number;
  profiles: string[];
  configurationVersion: number;
  meddraVersion: string;
  whodrugVersion: string;
  problems: DataProblem[];
}

export function profilesFor(record: Pick<ImportRecord, 'profile'>): string[] {
  return ['product', record.profile && REGIONAL_PROFILES.has(record.profile) ? record.profile : 'ich'];
}

const MEDDRA_CODE = /(^|[a-z])(meddraCode|MeddraCode)$/;

export async function checkImportedDocument(
  deps: Pick<ModuleDeps, 'store' | 'clock' | 'translator'>,
  handle: TenantHandle,
  record: ImportRecord,
  doc: Doc,
): Promise<DataCheck> {
  const { clock, translator } = deps;
  const profiles = profilesFor(record);
  const configuration = new ConfigurationService(handle, clock);
  const checked = await configuration.check(record.projectId, doc, { profiles });
  const problems: DataProblem[] = checked.findings.map((finding) => ({
    kind: finding.severity === 'warning' ? 'warning' : isMissing(finding, doc) ? 'missing' : 'invalid',
    path: finding.path,
    ...(finding.e2b ? { e2b: finding.e2b } : {}),
    ruleId: finding.ruleId,
    messageKey: finding.messageKey,
    params: finding.params,
    message: finding.message,
  }));

  const dictionaries = dictionaryService(deps.store);
  const meddraDoc = await dictionaries.get(handle, record.meddraVersionId);
  const whodrugDoc = await dictionaries.get(handle, record.whodrugVersionId);
  const say = (path: string, ruleId: string, key: string, params: Record<string, string | number>) =>
    problems.push({
      kind: 'dictionary',
      path,
      ruleId,
      messageKey: key,
      params,
      message: { zh: translator.t('zh', key, params), en: translator.t('en', key, params) },
    });

  const values = leaves(doc);
  const terms: CodedMeddraTerm[] = [];
  for (const [path, value] of values) {
    const field = path.split('/').pop()!;
    if (!MEDDRA_CODE.test(field) || typeof value !== 'string') continue;
    terms.push({ ref: path, meddraCode: value });
    const versionPath = path.replace(/([mM])eddraCode$/, '$1eddraVersion');
    const termVersion = values.get(versionPath);
    if (typeof termVersion === 'string' && termVersion !== meddraDoc.version)
      say(path, 'imports.meddraVersion', 'imports.check.meddraVersionDiffers', {
        code: value,
        version: termVersion,
        chosen: meddraDoc.version,
      });
  }
  if (terms.length) {
    const meddra = await dictionaries.meddra(handle, meddraDoc);
    for (const term of recodeMeddraTerms(terms, meddra).terms)
      if (term.status === 'notFound')
        say(term.ref, 'imports.meddraCode', 'imports.check.meddraCodeUnknown', {
          code: term.before.meddraCode ?? '',
          version: meddraDoc.version,
        });
  }
  const drugCodes = [...values].filter(
    ([path, value]) => /^\/drugs\/\d+\/whodrugCode$/.test(path) && typeof value === 'string',
  );
  if (drugCodes.length) {
    const whodrug = await dictionaries.whodrug(handle, whodrugDoc);
    for (const [path, code] of drugCodes)
      if (!whodrug.detail(code as string))
        say(path, 'imports.whodrugCode', 'imports.check.whodrugCodeUnknown', {
          code: code as string,
          version: whodrugDoc.version,
        });
  }

  const blockingCount = problems.filter((problem) => problem.kind === 'invalid').length;
  return {
    passed: blockingCount === 0,
    blockingCount,
    profiles,
    configurationVersion: checked.configurationVersion,
    meddraVersion: meddraDoc.version,
    whodrugVersion: whodrugDoc.version,
    problems,
  };
}

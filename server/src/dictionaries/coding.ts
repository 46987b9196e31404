/**
 * Coding across cases: the bulk recode of a project's cases to another MedDRA version (each case
 * saved through the case module's own save, so revision, rules, audit and summary hold), and the
 * medical review task list with each case's coding status.
 */
import type { Caller } from '../http';
import {
  applyMeddraTerms,
  checkCodingVersions,
  containsHan,
  meddraLocationOfRef,
  meddraTermsOf,
  recodeMeddraTerms,
  caseSchemas,
  caseWorkflow,
} from '@pv/engine';
import type {
  CaseMeddraTerm,
  MeddraDictionary,
  RecodeStatus,
  RecodedTerm,
  TermLanguage,
  Finding,
} from '@pv/engine';
import type { Project } from '../projects';
import { PROJECTS } from '../projects';
import { requireCaseCoding } from './case-coding';
import { AppError } from '../http';
import type { Translator } from '../i18n';
import type { Filter, TenantHandle } from '../store';
import { projectWorkflow } from '../workflow/index';
import type { DictionaryService } from './service';

type Doc = Record<string, unknown>;

/** The case sections of a stored case (its store fields left out), as the case save takes them. */
const CASE_SECTIONS = Object.keys((caseSchemas[0] as { properties: Doc }).properties);
const sectionsOf = (stored: Doc): Doc =>
  Object.fromEntries(
    CASE_SECTIONS.filter((key) => stored[key] !== undefined).map((key) => [key, stored[key]]),
  );

/** Both languages of a MedDRA version, loaded on demand; a term is recoded in its own language. */
function dictionariesOf(caller: Caller, service: DictionaryService, version: string) {
  const loaded = new Map<TermLanguage, Promise<MeddraDictionary | null>>();
  const one = (language: TermLanguage) => {
    let entry = loaded.get(language);
    if (!entry) {
      entry = service
        .resolve(caller.tenant, 'meddra', { version, language }, language)
        .then((doc) => service.meddra(caller.tenant, doc))
        .catch(() => null);
      loaded.set(language, entry);
    }
    return entry;
  };
  return async (term: CaseMeddraTerm | Doc): Promise<MeddraDictionary | null> => {
    const name = typeof term.meddraLltName === 'string' ? term.meddraLltName : '';
    const wanted: TermLanguage = containsHan(name) ? 'zh' : name ? 'en' : caller.lang;
    return (await one(wanted)) ?? (await one(wanted === 'zh' ? 'en' : 'zh'));
  };
}

/** A term recoded in its own language's release of the version (notFound when neither is imported). */
export async function recodeTerms(
  terms: CaseMeddraTerm[],
  dictionaryFor: (term: CaseMeddraTerm) => Promise<MeddraDictionary | null>,
): Promise<RecodedTerm[]> {
  const out: RecodedTerm[] = [];
  for (const term of terms) {
    const dictionary = await dictionaryFor(term);
    if (!dictionary) {
      out.push({
        ref: term.ref,
        status: term.meddraCode ? 'notFound' : 'uncoded',
        before: term,
        after: term,
        changes: [],
      });
      continue;
    }
    // The engine counts only the fields the term's item stores (an indication gains no PT or SOC).
    out.push(recodeMeddraTerms([term], dictionary).terms[0]!);
  }
  return out;
}

export interface ProjectRecodeCase {
  caseId: string;
  reportCode: string | null;
  summary: Record<RecodeStatus, number>;
  /** saved: written; unchanged: nothing to write; preview: not asked to write; refused: see message. */
  outcome: 'saved' | 'unchanged' | 'preview' | 'refused';
  /** Why a case was not saved (refused), in both languages. */
  message?: { zh: string; en: string };
  terms: (RecodedTerm & { e2b: string; verbatim: string })[];
}

const emptySummary = (): Record<RecodeStatus, number> => ({
  unchanged: 0,
  updated: 0,
  nonCurrent: 0,
  notFound: 0,
  uncoded: 0,
});

/** Cases read per batch: a large project is never held in memory whole. */
const RECODE_BATCH = 200;

export interface RecodeProjectOptions {
  version: string;
  apply: boolean;
  /** The job's progress (0-100) and message. */
  progress?: (percent: number, message: string) => Promise<void>;
  /** Stops between cases (the job was canceled or lost its lease): the cases done stay done. */
  signal?: AbortSignal;
}

export interface ProjectRecodeReport {
  version: string;
  applied: boolean;
  summary: Record<RecodeStatus, number>;
  /** Cases read; the report lists every case, each with its terms that did not stay as they were. */
  caseCount: number;
  /** True when the job was stopped before the last case. */
  stopped: boolean;
  cases: ProjectRecodeCase[];
}

/**
 * Recodes every coded MedDRA term of a project's (not deleted) cases to `version`. Without
 * `apply` it reports what would change; with it, each case with changes is saved from the
 * revision read (a case changed meanwhile, locked or failing its rules is refused and reported,
 * never half-written). Runs as a job (coding-job.ts) with the caller's request context.
 */
export async function recodeProject(
  caller: Caller,
  service: DictionaryService,
  projectId: string,
  options: RecodeProjectOptions,
): Promise<ProjectRecodeReport> {
  // Refuses an unknown version before any case is read ("version X has not been imported").
  await service.resolve(caller.tenant, 'meddra', { version: options.version }, caller.lang);
  const dictionaryFor = dictionariesOf(caller, service, options.version);
  const t = caller.t;
  const cases = caller.tenant.collection<Doc>(requireCaseCoding().collections.cases);
  const filter: Filter = { 'report.studyProjectId': projectId, 'state.validity': { $ne: 'deleted' } };
  const total = await cases.count(filter);
  const summary = emptySummary();
  const out: ProjectRecodeCase[] = [];
  let last: string | null = null;
  let stopped = false;
  let reported = -1;
  for (;;) {
    const batch = await cases.find(last === null ? filter : { ...filter, _id: { $gt: last } }, {
      sort: { _id: 1 },
      limit: RECODE_BATCH,
    });
    if (batch.length === 0) break;
    for (const doc of batch) {
      if (options.signal?.aborted) {
        stopped = true;
        break;
      }
      out.push(await recodeCase(caller, doc, dictionaryFor, summary, options, t));
      const percent = Math.floor((out.length * 100) / Math.max(total, 1));
      if (percent !== reported && options.progress) {
        reported = percent;
        await options.progress(Math.min(percent, 99), `${out.length}/${total}`);
      }
    }
    if (stopped) break;
    last = batch[batch.length - 1]!._id as string;
  }
  return {
    version: options.version,
    applied: options.apply,
    summary,
    caseCount: out.length,
    stopped,
    cases: out,
  };
}

async function recodeCase(
  caller: Caller,
  doc: Doc,
  dictionaryFor: (term: CaseMeddraTerm) => Promise<MeddraDictionary | null>,
  summary: Record<RecodeStatus, number>,
  options: RecodeProjectOptions,
  t: (key: string, params?: Record<string, string>) => string,
): Promise<ProjectRecodeCase> {
  const terms = meddraTermsOf(doc).filter((term) => term.meddraCode);
  const recoded = await recodeTerms(terms, dictionaryFor);
  const caseSummary = emptySummary();
  for (const term of recoded) {
    caseSummary[term.status] += 1;
    summary[term.status] += 1;
  }
  const changed = recoded.filter((term) => term.changes.length > 0);
  const row: ProjectRecodeCase = {
    caseId: doc._id as string,
    reportCode: ((doc.report as Doc | undefined)?.reportCode as string | undefined) ?? null,
    summary: caseSummary,
    outcome: changed.length === 0 ? 'unchanged' : options.apply ? 'saved' : 'preview',
    // Terms that stay as they were are counted, not listed: the report of a large project stays small.
    terms: recoded.flatMap((term, i) =>
      term.status === 'unchanged' ? [] : [{ ...term, e2b: terms[i]!.e2b, verbatim: terms[i]!.verbatim }],
    ),
  };
  if (options.apply && changed.length > 0) {
    const { doc: next } = applyMeddraTerms(
      sectionsOf(doc),
      changed.map((term) => term.after),
    );
    try {
      await requireCaseCoding().save(caller, row.caseId, {
        rev: doc.rev as number,
        document: next,
        confirmMissing: true,
        reason: t('dictionaries.recodeProjectReason', { version: options.version }),
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      row.outcome = 'refused';
      // Read later, in either language: both texts of the refusal.
      const translator = caller.translator;
      row.message = {
        zh: translator.t('zh', error.messageKey, error.params),
        en: translator.t('en', error.messageKey, error.params),
      };
    }
  }
  return row;
}

/** Node ids of medical review, across the project workflows (a project may add a second one). */
async function medicalReviewNodes(
  caller: Caller,
): Promise<{ ids: string[]; projects: Map<string, Project & { _id: string }> }> {
  const projects = await caller.tenant
    .collection<Project>(PROJECTS)
    .find({}, { projection: { code: 1, name: 1, nameEn: 1, workflowOverride: 1 } });
  const ids = new Set(Object.keys(caseWorkflow.nodes).filter((id) => id.startsWith('medicalReview')));
  for (const project of projects) {
    if (!project.workflowOverride) continue;
    for (const id of Object.keys(projectWorkflow(project.workflowOverride).nodes))
      if (id.startsWith('medicalReview')) ids.add(id);
  }
  return { ids: [...ids], projects: new Map(projects.map((p) => [p._id, p as Project & { _id: string }])) };
}

export interface CodingStatus {
  total: number;
  coded: number;
  uncoded: number;
  /** Coded terms in another version than the project's, or not in it. */
  issues: number;
  configuredVersion: string | null;
}

export interface ReviewTaskRow {
  id: string;
  reportCode: string | null;
  projectId: string | null;
  projectName: { zh: string; en: string } | null;
  patientsName: string | null;
  node: string;
  handlerId: string | null;
  handlerName: string | null;
  updatedAt: string | null;
  dueDate: string | null;
  coding: CodingStatus;
}

/**
 * Cases waiting at a medical review node (valid, not completed), the caller's own only when
 * `mine`, in the request's projects, most urgent first; each with its coding status.
 */
export async function medicalReviewTasks(
  caller: Caller,
  service: DictionaryService,
  query: { mine: boolean; page: number; size: number },
): Promise<{ total: number; page: number; size: number; items: ReviewTaskRow[] }> {
  const handle = caller.tenant;
  const { ids, projects } = await medicalReviewNodes(caller);
  const projectIds = caller.studyProjectIds;
  const filter: Filter = {
    'state.workflowNode': { $in: ids },
    'state.validity': 'valid',
    'state.isCompleted': false,
    ...(query.mine ? { 'state.handlerId': caller.userId } : {}),
    ...(projectIds.length ? { 'v.report_studyProjectId': { $in: projectIds } } : {}),
  };
  const { collections } = requireCaseCoding();
  const summaries = handle.collection<Doc>(collections.summaries);
  const [total, page] = await Promise.all([
    summaries.count(filter),
    summaries.find(filter, {
      // Running reporting clocks first, nearest due date first; then the longest waiting.
      sort: { 'deadline.runs': -1, 'deadline.dueDate': 1, 'state.updatedAt': 1 },
      skip: (query.page - 1) * query.size,
      limit: query.size,
      projection: { v: 1, state: 1, deadline: 1 },
    }),
  ]);
  // The page's case documents only, for their MedDRA fields.
  const docs = await handle.collection<Doc>(collections.cases).find({ _id: { $in: page.map((s) => s._id) } });
  const byId = new Map(docs.map((d) => [d._id as string, d]));
  const configured = new Map<
    string,
    Promise<{ version: string | null; dictionary: MeddraDictionary | null }>
  >();
  const configuredFor = (projectId: string | null) => {
    const key = projectId ?? '';
    let entry = configured.get(key);
    if (!entry) {
      entry = (async () => {
        if (!projectId) return { version: null, dictionary: null };
        const { meddraVersion } = await service.settings(handle, projectId);
        if (!meddraVersion) return { version: null, dictionary: null };
        const dictionary = await service
          .resolve(handle, 'meddra', { projectId }, caller.lang)
          .then((doc) => service.meddra(handle, doc))
          .catch(() => null);
        return { version: meddraVersion, dictionary };
      })();
      configured.set(key, entry);
    }
    return entry;
  };

  const items: ReviewTaskRow[] = [];
  for (const summary of page) {
    const v = (summary.v ?? {}) as Doc;
    const state = (summary.state ?? {}) as Doc;
    const projectId = typeof v.report_studyProjectId === 'string' ? v.report_studyProjectId : null;
    const project = projectId ? projects.get(projectId) : undefined;
    const terms = meddraTermsOf(byId.get(summary._id as string) ?? {});
    const coded = terms.filter((term) => term.meddraCode);
    const { version, dictionary } = await configuredFor(projectId);
    const issues = dictionary
      ? checkCodingVersions(coded, dictionary).length
      : version
        ? coded.filter((term) => term.meddraVersion !== version).length
        : 0;
    items.push({
      id: summary._id as string,
      reportCode: (v.report_reportCode as string | undefined) ?? null,
      projectId,
      projectName: project ? { zh: project.name, en: project.nameEn ?? project.name } : null,
      patientsName: (v.patient_patientsName as string | undefined) ?? null,
      node: String(state.workflowNode ?? ''),
      handlerId: (state.handlerId as string | undefined) ?? null,
      handlerName: (state.handlerName as string | undefined) ?? null,
      updatedAt: (state.updatedAt as string | undefined) ?? null,
      dueDate: ((summary.deadline as Doc | null)?.dueDate as string | undefined) ?? null,
      coding: {
        total: terms.length,
        coded: coded.length,
        uncoded: terms.length - coded.length,
        issues,
        configuredVersion: version,
      },
    });
  }
  return { total, page: query.page, size: query.size, items };
}

/**
 * SPEC 5 "MedDRA version must be configured and must match the group LLT codes" and "selection
 * must reach SOC level", as check findings of a case (the engine's Finding shape, at the code
 * field): the module provides them to every case check. Warnings, not errors: a project whose
 * version is not configured yet, or a case coded before a version change, must still save (the
 * recode fixes the codes). Nothing when the case has no coded MedDRA term.
 */
export async function meddraCodingFindings(
  handle: TenantHandle,
  service: DictionaryService,
  translator: Translator,
  doc: unknown,
  projectId: string | null,
): Promise<Finding[]> {
  const coded = meddraTermsOf(doc).filter((term) => term.meddraCode);
  if (coded.length === 0) return [];
  const finding = (
    term: CaseMeddraTerm,
    messageKey: string,
    params: Record<string, string> = {},
  ): Finding => {
    const location = meddraLocationOfRef(term.ref)!.location;
    return {
      path: `${term.itemPointer}/${location.code}`,
      e2b: `${term.e2b}b`,
      ruleId: `dictionaries.${messageKey}`,
      severity: 'warning',
      messageKey: `dictionaries.${messageKey}`,
      params,
      message: {
        zh: translator.t('zh', `dictionaries.${messageKey}`, params),
        en: translator.t('en', `dictionaries.${messageKey}`, params),
      },
    };
  };
  const version = projectId ? (await service.settings(handle, projectId)).meddraVersion : null;
  if (!version) return [finding(coded[0]!, 'meddraVersionNotConfigured')];
  const versions = await service.list(handle, 'meddra');
  const release = versions.find((v) => v.version === version);
  const dictionary = release
    ? await service.meddra(handle, await service.get(handle, release.versionId))
    : null;
  if (!dictionary) {
    return coded
      .filter((term) => term.meddraVersion !== version)
      .map((term) =>
        finding(term, 'meddraVersionMismatch', {
          code: term.meddraCode!,
          version: term.meddraVersion ?? '',
          configured: version,
        }),
      );
  }
  const byRef = new Map(coded.map((term) => [term.ref, term]));
  const issues = checkCodingVersions(coded, dictionary);
  const flagged = new Set(issues.map((issue) => issue.ref));
  const findings = issues.map((issue) => finding(byRef.get(issue.ref)!, issue.messageKey, issue.params));
  // An LLT of the version must reach SOC: on the SOC the item stores, else on the primary path.
  for (const term of coded) {
    if (flagged.has(term.ref)) continue;
    const resolved = dictionary.resolve({ code: term.meddraCode!.trim(), socCode: term.meddraSocCode });
    if ('messageKey' in resolved) findings.push(finding(term, resolved.messageKey, resolved.params));
  }
  return findings;
}

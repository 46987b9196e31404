/**
 * The case's coding review (SPEC 2, case detail tab "coding review"): every MedDRA term of the
 * case, coded or not, with its verbatim text, its coding and its state against the project's
 * configured version (version mismatch, LLT not in the version); suggestions by exact and
 * normalised LLT match for the uncoded and the flagged, accepted into the case being edited (the
 * user saves as usual); and the recode to another MedDRA version, of this case (a report, then
 * applied to the case) or of the whole project (preview, then each changed case saved).
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import {
  Badge,
  Button,
  Combobox,
  Field,
  Option,
  ProgressBar,
  Text,
  Title3,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { getCaseProperty, jobEnded, MEDDRA_FIELD_LOCATIONS, meddraTermsOf } from '@pv/engine';
import type { CaseMeddraTerm, CodedMeddraTerm, RecodeStatus, RecodedTerm, TermLanguage } from '@pv/engine';
import { api } from '../../app/api';
import { notify } from '../../app/notify';
import { useSession } from '../../app/SessionContext';
import type { CaseStore } from '../../case-form';
import { useLanguage } from '../../i18n/LanguageContext';
import { dictionaries, errorMessage, followJob } from '../dictionaries/api';
import type { DictionaryVersion, JobView } from '../dictionaries/api';
import { useDictionaryText } from '../dictionaries/text';
import type { DictionaryKey } from '../dictionaries/text';
import type { CodingIssue, ReviewRow, Suggestion } from './review';
import { DataTable } from '../../renderers/table/DataTable';
import {
  acceptWrites,
  drugRows,
  reviewRows,
  storedProperty,
  termLanguage,
  verbatimsByLanguage,
  writesFor,
} from './review';

const MANAGE_PERMISSION = 'authoritymanagement:projectInfo:config';
const CODED_FIELDS = [
  'meddraVersion',
  'meddraCode',
  'meddraLltName',
  'meddraPtCode',
  'meddraPtName',
  'meddraSocCode',
  'meddraSocName',
] as const;

const useStyles = makeStyles({
  panel: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  bar: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'flex-end' },
  alert: { color: tokens.colorPaletteRedForeground1 },
  hint: { color: tokens.colorNeutralForeground3 },
  suggestion: {
    display: 'inline-flex',
    gap: tokens.spacingHorizontalXS,
    alignItems: 'center',
    marginRight: tokens.spacingHorizontalS,
  },
  section: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    paddingTop: tokens.spacingVerticalM,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
  },
});

/** Only the fields the check and recode routes take. */
const coded = (term: CaseMeddraTerm): CodedMeddraTerm => {
  const out: CodedMeddraTerm = { ref: term.ref };
  for (const field of CODED_FIELDS) if (term[field] !== undefined) out[field] = term[field];
  return out;
};

/** The report of the project recode task (server/src/dictionaries/coding.ts ProjectRecodeReport). */
interface ProjectRecodeAnswer {
  version: string;
  applied: boolean;
  summary: Record<RecodeStatus, number>;
  caseCount: number;
  stopped: boolean;
  cases: {
    caseId: string;
    reportCode: string | null;
    summary: Record<RecodeStatus, number>;
    outcome: 'saved' | 'unchanged' | 'preview' | 'refused';
    message?: { zh: string; en: string };
  }[];
}

export function CodingReviewPanel({
  store,
  readOnly,
  dirty,
}: {
  store: CaseStore;
  readOnly: boolean;
  /** Unsaved edits: the project recode (which saves cases on the server) waits for a save. */
  dirty: boolean;
}) {
  const styles = useStyles();
  const { dt, language: display } = useDictionaryText();
  const { pick } = useLanguage();
  const { info } = useSession();
  const canManage = (info?.permissions ?? []).includes(MANAGE_PERMISSION);
  const fallback: TermLanguage = display === 'en' ? 'en' : 'zh';

  const subscribe = useCallback((listener: () => void) => store.subscribe('', listener), [store]);
  const doc = useSyncExternalStore(subscribe, () => store.doc);
  const terms = useMemo(() => meddraTermsOf(doc), [doc]);
  const projectId = (doc as { report?: { studyProjectId?: string } }).report?.studyProjectId;

  const [configured, setConfigured] = useState<string | null | undefined>(undefined);
  const [releases, setReleases] = useState<DictionaryVersion[]>([]);
  const [issues, setIssues] = useState<CodingIssue[]>([]);
  const [suggestions, setSuggestions] = useState<Map<string, Suggestion[]>>(new Map());
  const [problem, setProblem] = useState<string | null>(null);
  const [target, setTarget] = useState('');
  const [recode, setRecode] = useState<RecodedTerm[] | null>(null);
  const [projectRecode, setProjectRecode] = useState<ProjectRecodeAnswer | null>(null);
  const [projectJob, setProjectJob] = useState<JobView<ProjectRecodeAnswer> | null>(null);
  const [busy, setBusy] = useState(false);
  // The task keeps running on the server when the tab is left; only following it stops.
  const following = useRef<AbortController | null>(null);
  useEffect(() => () => following.current?.abort(), []);

  useEffect(() => {
    let live = true;
    void api
      .request<DictionaryVersion[]>('/dictionaries/versions', {
        method: 'GET',
        params: { kind: 'meddra' },
        silent: true,
      })
      .then(
        (list) => live && setReleases(list),
        () => undefined,
      );
    if (projectId)
      void dictionaries.projectSettings(projectId).then(
        (settings) => live && setConfigured(settings.meddraVersion),
        (error: unknown) => live && setProblem(errorMessage(error)),
      );
    return () => {
      live = false;
    };
  }, [projectId]);

  /** A language of `version` that is imported, the wanted one first. */
  const languageOf = useCallback(
    (version: string, wanted: TermLanguage): TermLanguage | null => {
      const have = releases.filter((r) => r.version === version).map((r) => r.language);
      return have.includes(wanted) ? wanted : (have[0] ?? null);
    },
    [releases],
  );

  // Check and suggestions follow the terms (debounced: typing in a verbatim elsewhere is not a storm).
  const lookupKey = JSON.stringify(terms.map((t) => [t.ref, t.meddraCode, t.meddraVersion, t.verbatims]));
  useEffect(() => {
    if (!configured || !projectId || releases.length === 0) return;
    let live = true;
    const timer = setTimeout(() => {
      void (async () => {
        const codedTerms = terms.filter((t) => t.meddraCode).map(coded);
        try {
          const checkLanguage = languageOf(configured, fallback);
          const found: CodingIssue[] = [];
          if (codedTerms.length && checkLanguage) {
            const answer = await api.request<{ issues: CodingIssue[] }>('/dictionaries/meddra/check', {
              body: { projectId, language: checkLanguage, terms: codedTerms },
              silent: true,
            });
            found.push(...answer.issues);
          }
          const flagged = new Set(found.map((i) => i.ref));
          const wanted = terms.filter((t) => !t.meddraCode || flagged.has(t.ref));
          const next = new Map<string, Suggestion[]>();
          for (const [wantedLanguage, verbatims] of verbatimsByLanguage(wanted)) {
            const language = languageOf(configured, wantedLanguage);
            if (language !== wantedLanguage) continue;
            const answer = await api.request<{ items: { verbatim: string; suggestions: Suggestion[] }[] }>(
              '/dictionaries/meddra/suggest',
              { body: { projectId, language, verbatims: verbatims.slice(0, 500) }, silent: true },
            );
            for (const item of answer.items) next.set(item.verbatim, item.suggestions);
          }
          if (!live) return;
          setIssues(found);
          setSuggestions(next);
          setProblem(null);
        } catch (error) {
          if (live) setProblem(errorMessage(error));
        }
      })();
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // terms are keyed by lookupKey; languageOf follows releases.
  }, [lookupKey, configured, projectId, releases]);

  const rows = reviewRows(terms, issues, suggestions);
  const drugs = useMemo(() => drugRows(doc), [doc]);
  const counts = {
    total: rows.length,
    coded: rows.filter((r) => r.status !== 'uncoded').length,
    uncoded: rows.filter((r) => r.status === 'uncoded').length,
    issues: rows.filter((r) => r.status === 'issue').length,
  };
  const read = (pointer: string) => store.get(pointer);
  const fieldLabel = (term: CaseMeddraTerm) => {
    const location = MEDDRA_FIELD_LOCATIONS.find((l) => l.id === term.location)!;
    const label = getCaseProperty(`${location.item}/${location.code}`)?.['x-label'] as
      { zh: string; en: string } | undefined;
    return `${label ? pick(label) : location.id} (${term.e2b})`;
  };

  const accept = (row: ReviewRow, suggestion: Suggestion) => {
    for (const [pointer, value] of acceptWrites(row.term.ref, suggestion.coding, read))
      store.set(pointer, value);
    notify.toast(
      'success',
      dt('uiCodingAccepted', {
        verbatim: row.term.verbatim,
        code: suggestion.coding.llt.code,
        name: suggestion.coding.llt.name,
      }),
    );
  };

  const versions = [...new Set(releases.map((r) => r.version))];

  const previewCase = async () => {
    if (!target) return;
    setBusy(true);
    try {
      const codedTerms = terms.filter((t) => t.meddraCode);
      const byLanguage = new Map<TermLanguage, CodedMeddraTerm[]>();
      for (const term of codedTerms) {
        const language = languageOf(target, termLanguage(term, fallback)) ?? fallback;
        byLanguage.set(language, [...(byLanguage.get(language) ?? []), coded(term)]);
      }
      const out: RecodedTerm[] = [];
      for (const [language, list] of byLanguage) {
        const answer = await api.request<{ terms: RecodedTerm[] }>('/dictionaries/meddra/recode', {
          body: { version: target, language, terms: list },
        });
        out.push(...answer.terms);
      }
      const order = new Map(codedTerms.map((t, i) => [t.ref, i]));
      setRecode(out.sort((a, b) => order.get(a.ref)! - order.get(b.ref)!));
    } catch {
      // The request layer showed the server's message.
    } finally {
      setBusy(false);
    }
  };

  const applyCase = () => {
    if (!recode) return;
    let count = 0;
    for (const term of recode) {
      if (term.changes.length === 0) continue;
      const { ref: _ref, ...value } = term.after;
      for (const [pointer, next] of writesFor(term.ref, value, read)) store.set(pointer, next);
      count += 1;
    }
    setRecode(null);
    notify.toast('success', dt('uiRecodeApplied', { count }));
  };

  /** Starts the project recode task and follows it: progress while it runs, the report when done. */
  const runProject = async (apply: boolean) => {
    if (!target || !projectId) return;
    setBusy(true);
    setProjectRecode(null);
    following.current?.abort();
    const controller = new AbortController();
    following.current = controller;
    try {
      const started = await api.request<JobView<ProjectRecodeAnswer>>(
        `/dictionaries/coding/projects/${encodeURIComponent(projectId)}/recode`,
        { body: { version: target, apply } },
      );
      setProjectJob(started);
      const done = await followJob<ProjectRecodeAnswer>(started.jobId, setProjectJob, controller.signal);
      if (done?.status === 'succeeded' && done.result) setProjectRecode(done.result);
    } catch (error) {
      // A refused start was shown by the request layer; a lost poll is said in place.
      if (!controller.signal.aborted) setProblem(errorMessage(error));
    } finally {
      if (!controller.signal.aborted) setBusy(false);
    }
  };

  const statusBadge = (row: ReviewRow) =>
    row.status === 'uncoded' ? (
      <Badge appearance="outline" color="warning">
        {dt('uiCodingStatusUncoded')}
      </Badge>
    ) : row.status === 'issue' ? (
      <Text size={200} className={styles.alert} role="alert">
        {row.issue!.message}
      </Text>
    ) : (
      <Badge appearance="outline" color="success">
        {dt('uiCodingStatusCoded')}
      </Badge>
    );

  const suggestionText = (s: Suggestion) =>
    `${s.coding.llt.code} ${s.coding.llt.name} · ${s.coding.soc.abbrev} (${dt(
      s.match === 'exact' ? 'uiCodingMatchExact' : 'uiCodingMatchNormalised',
    )})`;

  const summaryText = (summary: Record<RecodeStatus, number>, version: string) =>
    dt('uiRecodeSummary', { version, ...summary });

  return (
    <div className={styles.panel} data-testid="coding-review">
      <Title3>{dt('uiCodingTitle')}</Title3>
      {configured === null ? (
        <Text role="alert" className={styles.alert} data-testid="coding-not-configured">
          {dt('uiMeddraVersionNotConfigured')}
        </Text>
      ) : configured ? (
        <Text data-testid="coding-version">{dt('uiCodingProjectVersion', { version: configured })}</Text>
      ) : null}
      {problem ? (
        <Text role="alert" className={styles.alert}>
          {problem}
        </Text>
      ) : null}
      <Text data-testid="coding-counts">{dt('uiCodingCounts', counts)}</Text>
      {rows.length === 0 ? (
        <Text>{dt('uiCodingEmpty')}</Text>
      ) : (
        <DataTable<ReviewRow>
          id="coding-review"
          ariaLabel={dt('uiCodingTitle')}
          rows={rows}
          rowKey={(row) => row.term.ref}
          rowProps={(row) => ({ 'data-testid': `coding-row-${row.term.ref}` })}
          serialOffset={false}
          empty=""
          columns={[
            { key: 'field', label: dt('uiCodingField'), width: 160, text: (row) => fieldLabel(row.term) },
            { key: 'verbatim', label: dt('uiCodingVerbatim'), width: 180, text: (row) => row.term.verbatim },
            {
              key: 'coded',
              label: dt('uiCodingCoded'),
              width: 200,
              text: (row) =>
                row.term.meddraCode ? `${row.term.meddraCode} ${row.term.meddraLltName ?? ''}` : '',
            },
            {
              key: 'ptSoc',
              label: dt('uiCodingPtSoc'),
              width: 220,
              text: (row) => [row.term.meddraPtName, row.term.meddraSocName].filter(Boolean).join(' / '),
            },
            {
              key: 'version',
              label: dt('uiCodingVersion'),
              width: 100,
              text: (row) => row.term.meddraVersion ?? '',
            },
            {
              key: 'status',
              label: dt('uiCodingStatus'),
              width: 140,
              text: (row) =>
                row.status === 'uncoded'
                  ? dt('uiCodingStatusUncoded')
                  : row.status === 'issue'
                    ? row.issue!.message
                    : dt('uiCodingStatusCoded'),
              render: (row) => statusBadge(row),
            },
            {
              key: 'suggestions',
              label: dt('uiCodingSuggestions'),
              width: 420,
              text: (row) =>
                row.status === 'coded'
                  ? ''
                  : row.suggestions.length === 0
                    ? dt('uiCodingNoSuggestion')
                    : row.suggestions.map(suggestionText).join('; '),
              render: (row, text) =>
                row.status === 'coded' ? null : row.suggestions.length === 0 ? (
                  <Text size={200} className={styles.hint}>
                    {text}
                  </Text>
                ) : (
                  row.suggestions.map((s) => (
                    <span key={s.coding.llt.code} className={styles.suggestion}>
                      <Text size={200}>{suggestionText(s)}</Text>
                      {!readOnly ? (
                        <Button
                          size="small"
                          data-testid={`coding-accept-${s.coding.llt.code}`}
                          onClick={() => accept(row, s)}
                        >
                          {dt('uiCodingAccept')}
                        </Button>
                      ) : null}
                    </span>
                  ))
                ),
            },
          ]}
        />
      )}

      {drugs.length > 0 ? (
        <div className={styles.section} data-testid="coding-drugs">
          <Text weight="semibold">{dt('uiCodingDrugs')}</Text>
          <Text>
            {dt('uiCodingDrugCounts', {
              total: drugs.length,
              coded: drugs.filter((d) => d.whodrugCode).length,
              uncoded: drugs.filter((d) => !d.whodrugCode).length,
            })}
          </Text>
          <DataTable<(typeof drugs)[number]>
            id="coding-drugs"
            ariaLabel={dt('uiCodingDrugs')}
            rows={drugs}
            rowKey={(drug) => drug.pointer}
            rowProps={(drug) => ({ 'data-testid': `coding-drug-${drug.pointer}` })}
            serialOffset={false}
            empty=""
            columns={[
              { key: 'verbatim', label: dt('uiCodingVerbatim'), width: 200, text: (drug) => drug.drugName },
              { key: 'generic', label: dt('uiGenericName'), width: 200, text: (drug) => drug.genericName },
              {
                key: 'whodrug',
                label: dt('uiCodingWhodrug'),
                width: 240,
                text: (drug) => (drug.whodrugCode ? `${drug.whodrugCode} ${drug.whodrugName}` : ''),
              },
              { key: 'atc', label: dt('uiCodingAtc'), width: 100, text: (drug) => drug.atcCode },
              {
                key: 'status',
                label: dt('uiCodingStatus'),
                width: 120,
                text: (drug) => dt(drug.whodrugCode ? 'uiCodingStatusCoded' : 'uiCodingStatusUncoded'),
                render: (drug, text) => (
                  <Badge appearance="outline" color={drug.whodrugCode ? 'success' : 'warning'}>
                    {text}
                  </Badge>
                ),
              },
            ]}
          />
        </div>
      ) : null}

      <div className={styles.section}>
        <Text weight="semibold">{dt('uiRecodeTitle')}</Text>
        <div className={styles.bar}>
          <Field label={dt('uiRecodeTarget')}>
            <Combobox
              data-testid="recode-target"
              value={target}
              selectedOptions={target ? [target] : []}
              onOptionSelect={(_: unknown, data: OptionOnSelectData) => {
                setTarget(data.optionValue ?? '');
                setRecode(null);
                setProjectRecode(null);
              }}
            >
              {versions.map((v) => (
                <Option key={v} value={v}>
                  {v}
                </Option>
              ))}
            </Combobox>
          </Field>
          <Button data-testid="recode-preview" disabled={!target || busy} onClick={() => void previewCase()}>
            {dt('uiRecodePreview')}
          </Button>
          {recode && !readOnly ? (
            <Button appearance="primary" data-testid="recode-apply" onClick={applyCase}>
              {dt('uiRecodeApply')}
            </Button>
          ) : null}
          {canManage && projectId ? (
            <>
              <Button
                data-testid="recode-project-preview"
                disabled={!target || busy}
                onClick={() => void runProject(false)}
              >
                {dt('uiRecodeProjectPreview')}
              </Button>
              <Button
                data-testid="recode-project-apply"
                disabled={!target || busy || dirty}
                title={dirty ? dt('uiRecodeDirty') : undefined}
                onClick={() => void runProject(true)}
              >
                {dt('uiRecodeProjectApply')}
              </Button>
            </>
          ) : null}
        </div>
        {recode ? (
          <RecodeReport
            terms={recode}
            summary={summaryText(countStatuses(recode), target)}
            labelOf={(ref) => {
              const term = terms.find((t) => t.ref === ref);
              return term ? `${fieldLabel(term)} ${term.verbatim}` : ref;
            }}
          />
        ) : null}
        {projectJob && !jobEnded(projectJob.status) ? (
          <div data-testid="recode-project-progress">
            <ProgressBar value={(projectJob.progress?.percent ?? 0) / 100} />
            <Text>
              {dt('uiRecodeProjectRunning', {
                percent: projectJob.progress?.percent ?? 0,
                progress: projectJob.progress?.message ?? '',
              })}
            </Text>
          </div>
        ) : projectJob && projectJob.status !== 'succeeded' ? (
          <Text role="alert" className={styles.alert} data-testid="recode-project-failed">
            {dt('uiJobFailed', { error: projectJob.error ?? projectJob.status })}
          </Text>
        ) : null}
        {projectRecode ? (
          <div data-testid="recode-project-report">
            <Text>{summaryText(projectRecode.summary, projectRecode.version)}</Text>
            <Text block>
              {dt('uiRecodeProjectDone', {
                saved: projectRecode.cases.filter((c) => c.outcome === 'saved').length,
                unchanged: projectRecode.cases.filter((c) => c.outcome === 'unchanged').length,
                skipped: projectRecode.cases.filter((c) => c.outcome === 'refused' || c.outcome === 'preview')
                  .length,
              })}
            </Text>
            {projectRecode.stopped ? (
              <Text block role="alert" className={styles.alert}>
                {dt('uiRecodeStopped', { count: projectRecode.caseCount })}
              </Text>
            ) : null}
            <DataTable<ProjectRecodeAnswer['cases'][number]>
              id="coding-recode-project"
              ariaLabel={dt('uiRecodeTitle')}
              rows={projectRecode.cases}
              rowKey={(c) => c.caseId}
              rowProps={(c) => ({ 'data-testid': `recode-project-case-${c.caseId}` })}
              maxHeight="50vh"
              empty=""
              columns={[
                { key: 'case', label: dt('uiRecodeCase'), width: 220, text: (c) => c.reportCode ?? '' },
                {
                  key: 'change',
                  label: dt('uiRecodeChange'),
                  width: 360,
                  text: (c) => summaryText(c.summary, projectRecode.version),
                },
                {
                  key: 'outcome',
                  label: dt('uiRecodeOutcome'),
                  width: 240,
                  text: (c) =>
                    `${dt(`uiRecodeOutcome_${c.outcome}`)}${c.message ? `: ${pick(c.message)}` : ''}`,
                },
              ]}
            />
          </div>
        ) : null}
      </div>
    </div>
  );
}

function countStatuses(terms: readonly RecodedTerm[]): Record<RecodeStatus, number> {
  const out: Record<RecodeStatus, number> = {
    unchanged: 0,
    updated: 0,
    nonCurrent: 0,
    notFound: 0,
    uncoded: 0,
  };
  for (const term of terms) out[term.status] += 1;
  return out;
}

function RecodeReport({
  terms,
  summary,
  labelOf,
}: {
  terms: RecodedTerm[];
  summary: string;
  labelOf: (ref: string) => string;
}) {
  const { dt } = useDictionaryText();
  const { pick } = useLanguage();
  return (
    <div data-testid="recode-report">
      <Text block>{summary}</Text>
      <DataTable<RecodedTerm>
        id="coding-recode"
        ariaLabel={summary}
        rows={terms}
        rowKey={(term) => term.ref}
        serialOffset={false}
        maxHeight="50vh"
        empty=""
        columns={[
          { key: 'field', label: dt('uiCodingField'), width: 260, text: (term) => labelOf(term.ref) },
          {
            key: 'status',
            label: dt('uiCodingStatus'),
            width: 120,
            text: (term) => dt(`uiRecodeStatus_${term.status}` as DictionaryKey),
          },
          {
            key: 'change',
            label: dt('uiRecodeChange'),
            width: 420,
            text: (term) =>
              term.changes
                .flatMap((change) => {
                  // Only what the item stores: an indication keeps no PT or SOC.
                  const property = storedProperty(term.ref, change.field);
                  if (!property) return [];
                  const label = getCaseProperty(property)?.['x-label'] as
                    { zh: string; en: string } | undefined;
                  return [
                    `${label ? pick(label) : change.field}: ${change.before ?? '-'} → ${change.after ?? '-'}`,
                  ];
                })
                .join('; '),
          },
        ]}
      />
    </div>
  );
}

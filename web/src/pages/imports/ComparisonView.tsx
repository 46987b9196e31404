/**
 * The pre-processing comparison of one report of an import: each field (label, E2B id) as
 * imported beside the existing case with the same C.1.1 or C.1.8.1, and the value chosen (the
 * imported one, the existing one, or an edit). The user saves the pre-processing, runs the data
 * check (its problems listed; a failed check blocks the import), generates a new report or a
 * follow-up version, or rejects the import.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import {
  Badge,
  Button,
  Checkbox,
  Dropdown,
  Field,
  Input,
  Link,
  Option,
  Spinner,
  Subtitle2,
  Text,
  Textarea,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { notify } from '../../app/notify';
import { useSession } from '../../app/SessionContext';
import { RequestError } from '../../api/request';
import { ConfirmDialog, useCaseFormText } from '../../case-form';
import { KINDS, importsApi } from './api';
import type { ImportKind } from './api';
import type {
  Comparison,
  ComparisonRow,
  DataCheck,
  DuplicateCandidate,
  FieldChoice,
  ImportReportView,
} from './api';
import { RejectDialog } from './RejectDialog';
import { useImportText } from './text';
import { DataTable } from '../../renderers/table/DataTable';
import { booleanText } from '../../display/values';
import { useLanguage } from '../../i18n/LanguageContext';
import type { ImportKey } from './text';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  head: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'center' },
  toolbar: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  differs: { backgroundColor: tokens.colorPaletteYellowBackground1 },
  problemRow: { backgroundColor: tokens.colorPaletteRedBackground1 },
  panel: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingVerticalM,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    maxHeight: '30vh',
    overflowY: 'auto',
  },
  problem: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'baseline' },
  path: { color: tokens.colorNeutralForeground3, fontFamily: tokens.fontFamilyMonospace },
});

const show = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') {
    const flavor = (value as { nullFlavor?: string }).nullFlavor;
    return flavor ? `nullFlavor: ${flavor}` : JSON.stringify(value);
  }
  return String(value);
};

/** An edited text keeps the type of the value it replaces (numbers and booleans stay so). */
function typed(text: string, like: unknown): unknown {
  if (text === '') return undefined;
  if (typeof like === 'number' && text.trim() !== '' && !Number.isNaN(Number(text))) return Number(text);
  if (typeof like === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** The repeated sections whose items the pre-processing may remove or add (E.i, G.k, C.2.r). */
const REPEATED = ['reactions', 'drugs', 'reporters'] as const;
type Repeated = (typeof REPEATED)[number];
const ITEM = /^\/(reactions|drugs|reporters)\/(\d+)\/(.+)$/;

/** The section, position and rest of a pointer inside a repeated item. */
function itemOf(path: string): { section: Repeated; index: number; rest: string } | null {
  const match = ITEM.exec(path);
  return match ? { section: match[1] as Repeated, index: Number(match[2]), rest: match[3]! } : null;
}

/**
 * The rows shown: the server's, and a row for each choice of an item added here and not yet saved
 * (its label and E2B id taken from the same field of another item of the section).
 */
function withAddedRows(rows: ComparisonRow[], choices: Record<string, FieldChoice>): ComparisonRow[] {
  const known = new Set(rows.map((row) => row.path));
  const added = Object.keys(choices)
    .filter((path) => !known.has(path) && itemOf(path))
    .map((path): ComparisonRow => {
      const { section, rest } = itemOf(path)!;
      const like = rows.find((row) => {
        const item = itemOf(row.path);
        return item?.section === section && item.rest === rest;
      });
      return {
        path,
        source: 'edited',
        differs: false,
        readOnly: false,
        ...(like?.label ? { label: like.label } : {}),
        ...(like?.e2b ? { e2b: like.e2b } : {}),
      };
    });
  return [...rows, ...added];
}

const KIND_COLOR = {
  invalid: 'danger',
  missing: 'warning',
  dictionary: 'informative',
  warning: 'subtle',
} as const;

export function ComparisonView({
  kind,
  recordId,
  index,
}: {
  kind: ImportKind;
  recordId: string;
  index: number;
}) {
  const styles = useStyles();
  const navigate = useNavigate();
  // The page it is shown on: the E2B import's, or a workbook import's (line listing, Excel).
  const { pathname: page } = useLocation();
  const { it, pick } = useImportText();
  const { t } = useLanguage();
  // The duplicate fields' names, as case registration shows them (schemas/i18n/caseForm).
  const { tx } = useCaseFormText();
  const fieldNames = (fields: string[]) =>
    fields.map((field) => tx(`duplicateField_${field}` as Parameters<typeof tx>[0])).join(', ') || '-';
  // Read-only cells: booleans as yes/no, not true/false (the edit box keeps the raw text).
  const shown = (value: unknown) => (typeof value === 'boolean' ? booleanText(value, t) : show(value));
  const { info } = useSession();
  const permissions = useMemo(() => new Set(info?.permissions ?? []), [info]);
  const can = (permission: string) => permissions.has(permission);
  const [data, setData] = useState<Comparison | null>(null);
  const [reports, setReports] = useState<ImportReportView[]>([]);
  const [choices, setChoices] = useState<Record<string, FieldChoice>>({});
  const [dirty, setDirty] = useState(false);
  const [check, setCheck] = useState<DataCheck | null>(null);
  /** Why the last generation was refused, kept on screen beside the problems. */
  const [refusal, setRefusal] = useState<string | null>(null);
  const [onlyDiffering, setOnlyDiffering] = useState(false);
  const [busy, setBusy] = useState(false);
  const [followUp, setFollowUp] = useState(false);
  const [reason, setReason] = useState('');
  const [rejecting, setRejecting] = useState(false);
  /** The duplicate candidate compared with (undefined: as saved; null: the sender identifier match). */
  const [target, setTarget] = useState<string | null | undefined>(undefined);
  const [rejectingDuplicate, setRejectingDuplicate] = useState<DuplicateCandidate | null>(null);
  /** Items added here (section/index), not yet saved: removing one forgets its values. */
  const [added, setAdded] = useState<Set<string>>(new Set());

  const adopt = (answer: Comparison) => {
    setData(answer);
    // The server answers every row's current choice: keep the explicit ones as the draft.
    setChoices(
      Object.fromEntries(
        answer.rows
          .filter(
            (row) => row.source === 'edited' || (row.source === 'existing' && row.imported !== undefined),
          )
          .map((row) => [
            row.path,
            row.source === 'edited' ? { source: 'edited', value: row.chosen } : { source: row.source },
          ]),
      ),
    );
    setDirty(false);
    setAdded(new Set());
  };

  const load = useCallback(async () => {
    setData(null);
    setCheck(null);
    setRefusal(null);
    const [answer, detail] = await Promise.all([
      importsApi.comparison(kind, recordId, index, target),
      importsApi.detail(kind, recordId),
    ]);
    adopt(answer);
    setReports(detail.reports);
  }, [kind, recordId, index, target]);
  useEffect(() => void load().catch(() => undefined), [load]);

  const open = data?.report.status === 'pending' && !data.record.rejected;
  const problemPaths = useMemo(
    () => new Set((check?.problems ?? []).filter((p) => p.kind === 'invalid').map((p) => p.path)),
    [check],
  );

  const choose = (path: string, choice: FieldChoice) => {
    setChoices((all) => ({ ...all, [path]: choice }));
    setDirty(true);
  };
  const choiceOf = (row: ComparisonRow): FieldChoice =>
    choices[row.path] ?? {
      source: row.imported === undefined && row.existing !== undefined ? 'existing' : 'imported',
    };
  const chosenOf = (row: ComparisonRow): unknown => {
    const choice = choiceOf(row);
    if (choice.source === 'edited') return choice.value;
    return choice.source === 'existing' ? row.existing : row.imported;
  };

  const save = async () => {
    setBusy(true);
    try {
      adopt(await importsApi.save(kind, recordId, index, choices, target));
      notify.toast('success', it('uiSaved'));
    } finally {
      setBusy(false);
    }
  };

  const runCheck = async () => {
    setBusy(true);
    try {
      const result = await importsApi.check(kind, recordId, index, choices);
      setCheck(result);
      setRefusal(null);
      notify.toast(
        result.passed ? 'success' : 'warning',
        result.passed ? it('uiCheckPassed') : it('uiCheckFailed', { count: result.blockingCount }),
      );
    } finally {
      setBusy(false);
    }
  };

  const generate = async (mode: 'new' | 'followUp') => {
    setBusy(true);
    try {
      // The server generates from the saved pre-processing: save the draft first.
      if (dirty || target !== undefined) adopt(await importsApi.save(kind, recordId, index, choices, target));
      const result = await importsApi.generate(
        kind,
        recordId,
        index,
        mode,
        mode === 'followUp' ? reason.trim() : undefined,
      );
      setFollowUp(false);
      notify.toast(
        'success',
        it(mode === 'new' ? 'uiGeneratedNew' : 'uiGeneratedFollowUp', { code: result.reportCode }),
      );
      await load();
    } catch (error) {
      if (error instanceof RequestError) {
        const blocked = error.data as DataCheck | null;
        if (blocked && Array.isArray(blocked.problems)) setCheck(blocked);
        setRefusal(error.message);
        notify.toast('error', error.message);
      }
    } finally {
      setBusy(false);
    }
  };

  const rejectAsDuplicate = async (candidate: DuplicateCandidate) => {
    setBusy(true);
    try {
      await importsApi.rejectReport(kind, recordId, index, candidate.caseId);
      setRejectingDuplicate(null);
      notify.toast('success', it('uiRejectedDuplicate'));
      await load();
    } finally {
      setBusy(false);
    }
  };

  if (!data) return <Spinner />;
  const allRows = withAddedRows(data.rows, choices);
  const rows = allRows.filter((row) => !onlyDiffering || row.differs || problemPaths.has(row.path));
  const rowClass = (row: ComparisonRow) =>
    problemPaths.has(row.path) ? styles.problemRow : row.differs ? styles.differs : undefined;
  const editable = (row: ComparisonRow) => open && !row.readOnly && can(KINDS[kind].import);
  const itemRows = (section: Repeated, index: number) =>
    allRows.filter((row) => {
      const item = itemOf(row.path);
      return item?.section === section && item.index === index;
    });
  const isRemoved = (section: Repeated, index: number) => {
    const own = itemRows(section, index);
    return (
      !added.has(`${section}/${index}`) &&
      own.length > 0 &&
      own.every((row) => choices[row.path]?.source === 'edited' && choices[row.path]?.value === undefined)
    );
  };
  const indexesOf = (section: Repeated) =>
    [
      ...new Set(
        allRows
          .map((row) => itemOf(row.path))
          .filter((i) => i?.section === section)
          .map((i) => i!.index),
      ),
    ].sort((a, b) => a - b);
  /** For a field of an added item: the same field's value in another item (its type is kept). */
  const sampleOf = (path: string): unknown => {
    const item = itemOf(path);
    const like = item
      ? allRows.find((row) => {
          const other = itemOf(row.path);
          return other?.section === item.section && other.rest === item.rest && row.imported !== undefined;
        })
      : undefined;
    return like?.imported;
  };
  const removeItem = (section: Repeated, index: number) => {
    const paths = itemRows(section, index).map((row) => row.path);
    setChoices((all) => {
      const next = { ...all };
      for (const path of paths)
        if (added.has(`${section}/${index}`)) delete next[path];
        else next[path] = { source: 'edited' };
      return next;
    });
    setAdded((all) => {
      const next = new Set(all);
      next.delete(`${section}/${index}`);
      return next;
    });
    setDirty(true);
  };
  const restoreItem = (section: Repeated, index: number) => {
    const paths = itemRows(section, index).map((row) => row.path);
    setChoices((all) => Object.fromEntries(Object.entries(all).filter(([path]) => !paths.includes(path))));
    setDirty(true);
  };
  /** A new item at the next position, with the fields the section's first item has (a new id when it has one). */
  const addItem = (section: Repeated) => {
    const indexes = indexesOf(section);
    const index = indexes.length ? indexes[indexes.length - 1]! + 1 : 0;
    const template = indexes.length ? itemRows(section, indexes[0]!) : [];
    const fields = [
      ...new Set(template.map((row) => itemOf(row.path)!.rest).filter((rest) => !rest.includes('/'))),
    ];
    if (!fields.length) fields.push(section === 'reactions' ? 'reactionNative' : 'id');
    setChoices((all) => {
      const next = { ...all };
      for (const field of fields)
        next[`/${section}/${index}/${field}`] =
          field === 'id' ? { source: 'edited', value: crypto.randomUUID() } : { source: 'edited' };
      return next;
    });
    setAdded((all) => new Set(all).add(`${section}/${index}`));
    setDirty(true);
  };
  const statusKey = `uiReport_${data.report.status}` as ImportKey;

  return (
    <div className={styles.page} data-testid="imports-compare">
      <div className={styles.head}>
        <Button data-testid="imports-back" onClick={() => navigate(page)}>
          {it('uiBack')}
        </Button>
        <Title2>{it('uiCompareTitle')}</Title2>
        <Text>{data.record.fileName}</Text>
        {reports.length > 1 ? (
          <Dropdown
            value={it('uiReportN', { n: index + 1, id: reports[index]?.senderReportId ?? '' })}
            selectedOptions={[String(index)]}
            onOptionSelect={(_: unknown, d: OptionOnSelectData) =>
              navigate(`${page}?recordId=${recordId}&index=${d.optionValue}`)
            }
          >
            {reports.map((r) => (
              <Option
                key={r.index}
                value={String(r.index)}
                text={it('uiReportN', { n: r.index + 1, id: r.senderReportId ?? '' })}
              >
                {it('uiReportN', { n: r.index + 1, id: r.senderReportId ?? '' })} ·{' '}
                {it(`uiReport_${r.status}` as ImportKey)}
              </Option>
            ))}
          </Dropdown>
        ) : null}
        <Badge appearance="tint" data-testid="imports-report-status">
          {it(statusKey)}
        </Badge>
      </div>
      <div className={styles.head}>
        <Text>C.1.1: {data.report.senderReportId ?? ''}</Text>
        <Text>C.1.8.1: {data.report.worldwideId ?? ''}</Text>
        {data.existing ? (
          <Text data-testid="imports-existing">
            {data.existing.matchedBy === 'chosen'
              ? it('uiComparedWith', { reportCode: '' })
              : it('uiExistingCase', { by: data.existing.matchedBy })}{' '}
            <Link onClick={() => navigate(`/activecase?caseId=${data.existing!.caseId}`)}>
              {data.existing.reportCode}
            </Link>
          </Text>
        ) : (
          <Text data-testid="imports-existing">{it('uiNoExistingCase')}</Text>
        )}
        {data.report.caseId ? (
          <Link
            data-testid="imports-generated-case"
            onClick={() => navigate(`/activecase?caseId=${data.report.caseId}`)}
          >
            {it('uiOpenGeneratedCase')}
          </Link>
        ) : null}
      </div>
      <div className={styles.panel} data-testid="imports-duplicates">
        <Subtitle2>{it('uiDuplicates')}</Subtitle2>
        {data.duplicates.length === 0 ? <Text>{it('uiNoDuplicates')}</Text> : null}
        {data.duplicates.map((candidate) => (
          <div key={candidate.caseId} className={styles.toolbar} data-testid="imports-duplicate">
            <Link onClick={() => navigate(`/activecase?caseId=${candidate.caseId}`)}>
              {candidate.reportCode ?? candidate.caseId}
            </Link>
            <Text>{candidate.patientsName ?? ''}</Text>
            <Badge appearance="tint" color={candidate.identifierMatch ? 'danger' : 'warning'}>
              {it('uiDuplicateScore')} {candidate.score.toFixed(1)}
              {candidate.identifierMatch ? ` · ${it('uiSenderIdMatch')}` : ''}
            </Badge>
            <Text>
              {it('uiFieldsAgree')}: {fieldNames(candidate.matched)} · {it('uiFieldsDiffer')}:{' '}
              {fieldNames(candidate.differ)}
            </Text>
            {open && can(KINDS[kind].import) ? (
              <Button
                size="small"
                data-testid="imports-compare-duplicate"
                disabled={busy || data.existing?.caseId === candidate.caseId}
                onClick={() => {
                  setTarget(candidate.caseId);
                  setDirty(true);
                }}
              >
                {data.existing?.caseId === candidate.caseId
                  ? it('uiComparedWith', { reportCode: candidate.reportCode ?? '' })
                  : it('uiCompareWith')}
              </Button>
            ) : null}
            {open && can(KINDS[kind].reject) ? (
              <Button
                size="small"
                data-testid="imports-reject-duplicate"
                disabled={busy}
                onClick={() => setRejectingDuplicate(candidate)}
              >
                {it('uiRejectDuplicate')}
              </Button>
            ) : null}
          </div>
        ))}
      </div>
      {rejectingDuplicate ? (
        <ConfirmDialog
          open
          testId="imports-reject-duplicate-dialog"
          title={it('uiRejectDuplicate')}
          buttons={[
            { value: 'cancel', label: it('uiCancel') },
            { value: 'ok', label: it('uiRejectDuplicate'), primary: true },
          ]}
          onAnswer={(value) => {
            if (value !== 'ok') return setRejectingDuplicate(null);
            void rejectAsDuplicate(rejectingDuplicate);
          }}
        >
          <Text block>
            {it('uiConfirmRejectDuplicate', { reportCode: rejectingDuplicate.reportCode ?? '' })}
          </Text>
        </ConfirmDialog>
      ) : null}
      <div className={styles.toolbar}>
        {open && can(KINDS[kind].import) ? (
          <>
            <Button data-testid="imports-save" disabled={busy} onClick={() => void save()}>
              {it('uiSavePreprocessing')}
            </Button>
            <Button data-testid="imports-check" disabled={busy} onClick={() => void runCheck()}>
              {it('uiDataCheck')}
            </Button>
          </>
        ) : null}
        {open && can(KINDS[kind].generate) ? (
          <>
            <Button
              appearance="primary"
              data-testid="imports-generate-new"
              disabled={busy}
              onClick={() => void generate('new')}
            >
              {it('uiGenerateNew')}
            </Button>
            <Button
              data-testid="imports-generate-follow-up"
              disabled={busy || !data.existing}
              onClick={() => setFollowUp(true)}
            >
              {it('uiGenerateFollowUp')}
            </Button>
          </>
        ) : null}
        {!data.record.finished && can(KINDS[kind].reject) ? (
          <Button data-testid="imports-reject" disabled={busy} onClick={() => setRejecting(true)}>
            {it('uiReject')}
          </Button>
        ) : null}
        <Checkbox
          checked={onlyDiffering}
          onChange={(_, d) => setOnlyDiffering(Boolean(d.checked))}
          label={it('uiOnlyDiffering')}
        />
        {dirty ? <Text data-testid="imports-dirty">{it('uiUnsaved')}</Text> : null}
      </div>
      {check ? (
        <div className={styles.panel} data-testid="imports-problems">
          <Subtitle2>
            {check.passed ? it('uiCheckPassed') : it('uiCheckFailed', { count: check.blockingCount })} ·{' '}
            {it('uiCheckedWith', {
              profiles: check.profiles.join(', '),
              meddra: check.meddraVersion,
              whodrug: check.whodrugVersion,
            })}
          </Subtitle2>
          {refusal ? (
            <Text weight="semibold" data-testid="imports-refusal">
              {refusal}
            </Text>
          ) : null}
          {check.problems.length === 0 ? <Text>{it('uiNoProblems')}</Text> : null}
          {check.problems.map((problem, i) => {
            const row = data.rows.find((r) => r.path === problem.path);
            return (
              <div
                className={styles.problem}
                key={`${problem.path}-${problem.ruleId}-${i}`}
                data-testid={`imports-problem-${problem.kind}`}
              >
                <Badge appearance="tint" color={KIND_COLOR[problem.kind]}>
                  {it(`uiProblem_${problem.kind}` as ImportKey)}
                </Badge>
                <Text weight="semibold">{problem.e2b ?? row?.e2b ?? ''}</Text>
                <Text>{row?.label ? pick(row.label) : ''}</Text>
                <Text>{pick(problem.message)}</Text>
                <Text className={styles.path}>{problem.path}</Text>
                {open && problem.kind === 'invalid' && row ? (
                  <Button
                    size="small"
                    appearance="subtle"
                    data-testid="imports-clear-value"
                    onClick={() => choose(problem.path, { source: 'edited' })}
                  >
                    {it('uiClearValue')}
                  </Button>
                ) : null}
              </div>
            );
          })}
        </div>
      ) : null}
      {open && can(KINDS[kind].import) ? (
        <div className={styles.panel} data-testid="imports-items">
          <Subtitle2>{it('uiItems')}</Subtitle2>
          <Text>{it('uiItemsHelp')}</Text>
          {REPEATED.map((section) => {
            const name = it(`uiSection_${section}`);
            return (
              <div className={styles.problem} key={section}>
                {indexesOf(section).map((index) => {
                  const removed = isRemoved(section, index);
                  const label = it('uiItemN', { section: name, n: index + 1 });
                  return (
                    <span key={index} className={styles.problem}>
                      <Text strikethrough={removed}>
                        {label}
                        {added.has(`${section}/${index}`) ? ` (${it('uiItemAdded')})` : ''}
                        {removed ? ` (${it('uiItemRemoved')})` : ''}
                      </Text>
                      <Button
                        size="small"
                        appearance="subtle"
                        data-testid={`imports-item-${removed ? 'restore' : 'remove'}-${section}-${index}`}
                        onClick={() => (removed ? restoreItem(section, index) : removeItem(section, index))}
                      >
                        {removed ? it('uiRestoreItem') : it('uiRemoveItem')}
                      </Button>
                    </span>
                  );
                })}
                <Button
                  size="small"
                  data-testid={`imports-item-add-${section}`}
                  onClick={() => addItem(section)}
                >
                  {it('uiAddItem', { section: name })}
                </Button>
              </div>
            );
          })}
        </div>
      ) : null}
      <DataTable<ComparisonRow>
        id="import-comparison"
        ariaLabel={it('uiCompareTitle')}
        rows={rows}
        rowKey={(row) => row.path}
        rowProps={(row) => ({ 'data-testid': 'imports-field', 'data-path': row.path })}
        maxHeight="60vh"
        empty=""
        columns={[
          {
            key: 'field',
            label: it('uiField'),
            width: 280,
            text: (row) => `${row.label ? pick(row.label) : ''} ${row.path}`.trim(),
            render: (row) => (
              <>
                {row.label ? pick(row.label) : ''} <span className={styles.path}>{row.path}</span>
              </>
            ),
            cellClassName: rowClass,
          },
          {
            key: 'e2b',
            label: it('uiE2bId'),
            width: 100,
            text: (row) => row.e2b ?? '',
            cellClassName: rowClass,
          },
          {
            key: 'imported',
            label: it('uiImportedValue'),
            width: 200,
            text: (row) => shown(row.imported),
            cellClassName: rowClass,
          },
          {
            key: 'existing',
            label: it('uiExistingValue'),
            width: 200,
            text: (row) => shown(row.existing),
            cellClassName: rowClass,
          },
          {
            key: 'source',
            label: it('uiSource'),
            width: 140,
            text: (row) => it(`uiSource_${choiceOf(row).source}` as ImportKey),
            render: (row, text) =>
              editable(row) ? (
                <Dropdown
                  size="small"
                  style={{ minWidth: 110 }}
                  value={text}
                  selectedOptions={[choiceOf(row).source]}
                  onOptionSelect={(_: unknown, d: OptionOnSelectData) => {
                    const source = d.optionValue as FieldChoice['source'];
                    choose(row.path, source === 'edited' ? { source, value: chosenOf(row) } : { source });
                  }}
                >
                  {(
                    ['imported', ...(data.existing ? ['existing'] : []), 'edited'] as FieldChoice['source'][]
                  ).map((source) => (
                    <Option key={source} value={source}>
                      {it(`uiSource_${source}` as ImportKey)}
                    </Option>
                  ))}
                </Dropdown>
              ) : (
                text
              ),
            cellClassName: rowClass,
          },
          {
            key: 'chosen',
            label: it('uiChosenValue'),
            width: 220,
            text: (row) => shown(chosenOf(row)),
            render: (row, text) =>
              editable(row) ? (
                <Input
                  size="small"
                  aria-label={row.path}
                  value={show(chosenOf(row))}
                  onChange={(_, d) =>
                    choose(row.path, {
                      source: 'edited',
                      value: typed(d.value, row.imported ?? row.existing ?? sampleOf(row.path)),
                    })
                  }
                />
              ) : (
                text
              ),
            cellClassName: rowClass,
          },
        ]}
      />
      {followUp ? (
        <ConfirmDialog
          open
          testId="imports-follow-up-dialog"
          title={it('uiGenerateFollowUp')}
          buttons={[
            { value: 'cancel', label: it('uiCancel') },
            { value: 'ok', label: it('uiGenerateFollowUp'), primary: true },
          ]}
          onAnswer={(value) => {
            if (value !== 'ok') return setFollowUp(false);
            if (!reason.trim()) return notify.toast('warning', it('uiFollowUpReasonRequired'));
            void generate('followUp');
          }}
        >
          <Text block>{it('uiFollowUpOf', { code: data.existing?.reportCode ?? '' })}</Text>
          <Field label={it('uiFollowUpReason')} required>
            <Textarea value={reason} onChange={(_, d) => setReason(d.value)} maxLength={2000} />
          </Field>
        </ConfirmDialog>
      ) : null}
      {rejecting ? (
        <RejectDialog
          kind={kind}
          record={data.record}
          onClose={() => setRejecting(false)}
          onRejected={() => {
            setRejecting(false);
            void load();
          }}
        />
      ) : null}
    </div>
  );
}

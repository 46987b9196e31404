/**
 * The drug × reaction assessment matrix (G.k.9.i): one row per drug, one column per reaction;
 * a cell shows whether that pair is assessed and its causality results. Choosing a cell opens the
 * pair's assessment (intervals, rechallenge, dechallenge ...) and its assessments G.k.9.i.2.r.
 * Rows are virtualised: a 50 × 50 case mounts only the rows in view.
 */
import { memo, useState } from 'react';
import {
  Button,
  Caption1,
  Subtitle2,
  Text,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import type { CaseTabGroup } from '@pv/engine';
import { useLanguage } from '../i18n/LanguageContext';
import { GroupForm } from './GroupForm';
import { RepeatableSection, nestedGroups } from './RepeatableSection';
import type { CaseStore } from './store';
import { useCaseFormText } from './text';
import { lengthOf, useCaseValue } from './useStore';
import { ROW_HEIGHT, VirtualList } from './VirtualList';

const CELL = 96;
const HEAD = 200;

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  scroller: {
    overflowX: 'auto',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  row: { display: 'flex', height: `${ROW_HEIGHT}px` },
  head: {
    width: `${HEAD}px`,
    minWidth: `${HEAD}px`,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    padding: '0 6px',
    lineHeight: `${ROW_HEIGHT}px`,
    position: 'sticky',
    left: 0,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  cell: {
    width: `${CELL}px`,
    minWidth: `${CELL}px`,
    border: 'none',
    borderRight: `1px solid ${tokens.colorNeutralStroke3}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    background: 'none',
    cursor: 'pointer',
    fontSize: tokens.fontSizeBase200,
    overflow: 'hidden',
    whiteSpace: 'nowrap',
  },
  assessed: { backgroundColor: tokens.colorPaletteGreenBackground1 },
  chosen: { outline: `2px solid ${tokens.colorBrandStroke1}`, outlineOffset: '-2px' },
  colHead: { fontWeight: tokens.fontWeightSemibold, cursor: 'default' },
  detail: { paddingLeft: tokens.spacingHorizontalM, borderLeft: `3px solid ${tokens.colorBrandStroke1}` },
});

interface ReactionColumn {
  id: string;
  name: string;
}

type Assessment = { reactionId?: string; assessments?: { assessmentResult?: string }[] };

function reactionColumns(value: unknown): ReactionColumn[] {
  if (!Array.isArray(value)) return [];
  return value.map((r: Record<string, unknown>, i) => ({
    id: typeof r?.id === 'string' ? r.id : '',
    name: String(r?.reactionNative ?? r?.reactionTranslation ?? r?.meddraLltName ?? `#${i + 1}`),
  }));
}

/** Columns change when reactions are added, removed, renamed; a stable string keeps re-renders to those. */
const columnsKey = (value: unknown) => JSON.stringify(reactionColumns(value));

const DrugRow = memo(function DrugRow({
  store,
  drug,
  columns,
  chosen,
  onChoose,
}: {
  store: CaseStore;
  drug: number;
  columns: ReactionColumn[];
  chosen: string | null;
  onChoose: (drug: number, reactionId: string) => void;
}) {
  const styles = useStyles();
  const name = useCaseValue(store, `/drugs/${drug}/drugName`, (v) => (typeof v === 'string' ? v : ''));
  const summary = useCaseValue(store, `/drugs/${drug}/reactionAssessments`, (v) =>
    JSON.stringify(
      Array.isArray(v)
        ? (v as Assessment[]).map((a) => [
            a.reactionId,
            (a.assessments ?? [])
              .map((x) => x.assessmentResult ?? '')
              .filter(Boolean)
              .join('/'),
          ])
        : [],
    ),
  );
  const byReaction = new Map(
    (JSON.parse(summary) as [string, string][]).map(([id, results]) => [id, results]),
  );
  return (
    <div className={styles.row} data-testid={`matrix-row-${drug}`}>
      <div className={styles.head}>{`${drug + 1}. ${name}`}</div>
      {columns.map((column) => {
        const assessed = byReaction.has(column.id);
        return (
          <button
            type="button"
            key={column.id}
            className={mergeClasses(
              styles.cell,
              assessed && styles.assessed,
              chosen === column.id && styles.chosen,
            )}
            data-testid={`matrix-cell-${drug}-${column.id}`}
            aria-label={`${name} × ${column.name}`}
            onClick={() => onChoose(drug, column.id)}
          >
            {assessed ? byReaction.get(column.id) || '✓' : ''}
          </button>
        );
      })}
    </div>
  );
});

function AssessmentMatrixImpl({
  group,
  allGroups,
  store,
  readOnly,
}: {
  group: CaseTabGroup;
  allGroups: CaseTabGroup[];
  store: CaseStore;
  readOnly: boolean;
}) {
  const styles = useStyles();
  const { tx } = useCaseFormText();
  const { pick } = useLanguage();
  const drugCount = useCaseValue(store, '/drugs', lengthOf);
  const columnsJson = useCaseValue(store, '/reactions', columnsKey);
  const columns = JSON.parse(columnsJson) as ReactionColumn[];
  const [choice, setChoice] = useState<{ drug: number; reactionId: string } | null>(null);
  const list = useCaseValue(store, choice ? `/drugs/${choice.drug}/reactionAssessments` : '/drugs', (v) =>
    choice && Array.isArray(v)
      ? (v as Assessment[]).findIndex((a) => a.reactionId === choice.reactionId)
      : -1,
  );
  const width = HEAD + columns.length * CELL;

  const create = () => {
    if (!choice) return;
    const pointer = `/drugs/${choice.drug}/reactionAssessments`;
    const items = (store.get(pointer) as Assessment[] | undefined) ?? [];
    store.set(pointer, [...items, { reactionId: choice.reactionId }]);
  };
  const reactionName = columns.find((c) => c.id === choice?.reactionId)?.name ?? '';

  return (
    <section className={styles.section} data-testid="assessment-matrix">
      <Subtitle2>{pick(group.title)}</Subtitle2>
      {drugCount === 0 || columns.length === 0 ? (
        <Caption1>{tx('matrixEmpty')}</Caption1>
      ) : (
        <div className={styles.scroller}>
          <div style={{ width }}>
            <div className={styles.row}>
              <div className={styles.head} />
              {columns.map((c) => (
                <div
                  key={c.id}
                  className={mergeClasses(styles.cell, styles.colHead)}
                  title={c.name}
                  style={{ lineHeight: `${ROW_HEIGHT}px`, padding: '0 4px' }}
                >
                  {c.name}
                </div>
              ))}
            </div>
            <VirtualList
              count={drugCount}
              height={ROW_HEIGHT * 10}
              testId="matrix-rows"
              renderRow={(drug) => (
                <DrugRow
                  store={store}
                  drug={drug}
                  columns={columns}
                  chosen={choice?.drug === drug ? choice.reactionId : null}
                  onChoose={(d, reactionId) => setChoice({ drug: d, reactionId })}
                />
              )}
            />
          </div>
        </div>
      )}
      {choice ? (
        <div className={styles.detail} data-testid="matrix-detail">
          <Text weight="semibold">{`${String(store.get(`/drugs/${choice.drug}/drugName`) ?? `#${choice.drug + 1}`)} × ${reactionName}`}</Text>
          {list < 0 ? (
            readOnly ? (
              <Caption1>{tx('notAssessed')}</Caption1>
            ) : (
              <div>
                <Button data-testid="matrix-assess" onClick={create}>
                  {tx('assessPair')}
                </Button>
              </div>
            )
          ) : (
            <>
              <GroupForm
                key={`${choice.drug}-${list}`}
                group={group}
                base={`/drugs/${choice.drug}/reactionAssessments/${list}`}
                store={store}
                readOnly={readOnly}
              />
              {nestedGroups(group.array!, allGroups).map((child) => (
                <RepeatableSection
                  key={`${child.id}-${choice.drug}-${list}`}
                  group={child}
                  allGroups={allGroups}
                  parentIndexes={[choice.drug, list]}
                  store={store}
                  readOnly={readOnly}
                >
                  {nestedGroups(child.array!, allGroups)}
                </RepeatableSection>
              ))}
            </>
          )}
        </div>
      ) : null}
    </section>
  );
}

export const AssessmentMatrix = memo(AssessmentMatrixImpl);

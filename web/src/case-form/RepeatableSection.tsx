/**
 * A repeating section (reporters, drugs, dosages, reactions, tests, medical history ...): a
 * virtualised list of the items with add and remove, and the selected item's form below, with the
 * sections nested in it (a drug's dosages). Only one fully blank item may exist at a time.
 */
import { memo, useCallback, useEffect, useState } from 'react';
import {
  Badge,
  Button,
  Caption1,
  Subtitle2,
  Text,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { getCaseProperty } from '@pv/engine';
import type { CaseTabGroup } from '@pv/engine';
import { notify } from '../app/notify';
import { useLanguage } from '../i18n/LanguageContext';
import { ConfirmDialog } from './ConfirmDialog';
import { GroupForm } from './GroupForm';
import { fieldValueText } from './field-text';
import { groupSchema } from './group-schema';
import { concrete, getAt, isBlank, keyToPointer } from './pointer';
import { SectionFindings } from './SectionFindings';
import { seriousnessOf } from './seriousness';
import type { CaseStore } from './store';
import { useCaseFormText } from './text';
import { lengthOf, useCaseValue } from './useStore';
import { VirtualList } from './VirtualList';

const useStyles = makeStyles({
  section: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingVerticalS,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  spacer: { flexGrow: 1 },
  row: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    height: '100%',
    padding: `0 ${tokens.spacingHorizontalS}`,
    cursor: 'pointer',
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    overflow: 'hidden',
    whiteSpace: 'nowrap',
  },
  selected: { backgroundColor: tokens.colorNeutralBackground1Selected },
  index: { width: '32px', color: tokens.colorNeutralForeground3 },
  summary: { flexGrow: 1, overflow: 'hidden', textOverflow: 'ellipsis' },
  detail: { paddingLeft: tokens.spacingHorizontalM, borderLeft: `3px solid ${tokens.colorBrandStroke1}` },
});

export interface SectionProps {
  group: CaseTabGroup;
  /** Groups of the same tab nested in this one (their `array` starts with this one's `array/*`). */
  children: CaseTabGroup[];
  allGroups: CaseTabGroup[];
  parentIndexes: number[];
  store: CaseStore;
  readOnly: boolean;
}

/** Groups directly nested in `array` among `groups`. */
export function nestedGroups(array: string, groups: CaseTabGroup[]): CaseTabGroup[] {
  const prefix = `${array}/*/`;
  return groups.filter(
    (g) =>
      g.array?.startsWith(prefix) &&
      !groups.some(
        (o) => o !== g && o.array && o.array.startsWith(prefix) && g.array!.startsWith(`${o.array}/*/`),
      ),
  );
}

function Summary({ store, pointer, group }: { store: CaseStore; pointer: string; group: CaseTabGroup }) {
  const styles = useStyles();
  const { tx } = useCaseFormText();
  const { pick, t } = useLanguage();
  const fields = [...groupSchema(group, 'CaseField').fields];
  // The first values of the item in words (code labels, yes/no, ISO dates), never `true · 1`.
  const text = useCaseValue(store, pointer, (item) =>
    fields
      .map(([key, meta]) => [getAt(item, keyToPointer(key)), meta.descriptor.schema] as const)
      .filter(([v]) => v !== undefined && v !== '' && (typeof v !== 'object' || v === null))
      .slice(0, 4)
      .map(([v, schema]) => fieldValueText(schema, v, pick, t))
      .filter(Boolean)
      .join(' · '),
  );
  const serious = useCaseValue(store, pointer, (item) => seriousnessOf(item).length);
  return (
    <>
      <span className={styles.summary}>{text || <Caption1>{tx('blankItem')}</Caption1>}</span>
      {serious > 0 ? (
        <Badge color="danger" data-testid="serious-badge">
          {tx('serious')}
        </Badge>
      ) : null}
    </>
  );
}

function RepeatableSectionImpl({ group, children, allGroups, parentIndexes, store, readOnly }: SectionProps) {
  const styles = useStyles();
  const { tx } = useCaseFormText();
  const { pick } = useLanguage();
  const arrayPointer = concrete(group.array!, parentIndexes);
  const count = useCaseValue(store, arrayPointer, lengthOf);
  const [selected, setSelected] = useState<number | null>(count > 0 ? 0 : null);
  const [removing, setRemoving] = useState<number | null>(null);
  const current = selected !== null && selected < count ? selected : null;
  const testId = `section-${group.id}`;

  useEffect(
    () =>
      store.onFocusRequest((pointer) => {
        const match = pointer.startsWith(`${arrayPointer}/`)
          ? /^(\d+)/.exec(pointer.slice(arrayPointer.length + 1))
          : null;
        if (match) setSelected(Number(match[1]));
      }),
    [store, arrayPointer],
  );

  const add = useCallback(() => {
    const items = (store.get(arrayPointer) as unknown[] | undefined) ?? [];
    const blank = items.findIndex((item) => isBlank(item));
    if (blank >= 0) {
      notify.toast('warning', tx('onlyOneBlank'));
      setSelected(blank);
      return;
    }
    // Items other sections refer to (reactions from the drug-reaction matrix) carry a UUID, as E2B does.
    const item = getCaseProperty(`${group.array}/*/id`) ? { id: crypto.randomUUID() } : {};
    store.set(arrayPointer, [...items, item]);
    setSelected(items.length);
  }, [store, arrayPointer, group.array, tx]);

  const remove = (index: number) => {
    const items = [...((store.get(arrayPointer) as unknown[] | undefined) ?? [])];
    const [removed] = items.splice(index, 1);
    store.set(arrayPointer, items.length ? items : undefined);
    // A removed reaction takes its drug-reaction assessments with it (they would point at nothing).
    const id = (removed as { id?: unknown } | undefined)?.id;
    if (group.array === '/reactions' && typeof id === 'string') {
      const drugs = (store.get('/drugs') as Record<string, unknown>[] | undefined) ?? [];
      drugs.forEach((drug, i) => {
        const list = drug.reactionAssessments as { reactionId?: string }[] | undefined;
        if (list?.some((a) => a.reactionId === id)) {
          store.set(
            `/drugs/${i}/reactionAssessments`,
            list.filter((a) => a.reactionId !== id),
          );
        }
      });
    }
    setSelected(items.length ? Math.min(index, items.length - 1) : null);
  };

  return (
    <section className={styles.section} data-testid={testId} data-array={arrayPointer}>
      <div className={styles.head}>
        <Subtitle2>{pick(group.title)}</Subtitle2>
        <Text size={200}>{tx('itemCount', { count })}</Text>
        <span className={styles.spacer} />
        {!readOnly ? (
          <>
            <Button size="small" data-testid={`${testId}-add`} onClick={add}>
              {tx('add')}
            </Button>
            <Button
              size="small"
              data-testid={`${testId}-remove`}
              disabled={current === null}
              onClick={() => current !== null && setRemoving(current)}
            >
              {tx('remove')}
            </Button>
          </>
        ) : null}
      </div>
      <SectionFindings store={store} pointer={arrayPointer} />
      {count > 0 ? (
        <VirtualList
          count={count}
          height={Math.min(count, 8) * 36}
          testId={`${testId}-list`}
          renderRow={(i) => (
            <div
              className={mergeClasses(styles.row, i === current && styles.selected)}
              role="button"
              tabIndex={0}
              aria-pressed={i === current}
              data-testid={`${testId}-row-${i}`}
              onClick={() => setSelected(i)}
              onKeyDown={(event) => event.key === 'Enter' && setSelected(i)}
            >
              <span className={styles.index}>{i + 1}</span>
              <Summary store={store} pointer={`${arrayPointer}/${i}`} group={group} />
            </div>
          )}
        />
      ) : (
        <Caption1>{tx('noItems')}</Caption1>
      )}
      {current !== null ? (
        <div className={styles.detail} data-testid={`${testId}-detail`}>
          {group.array === '/reactions' ? (
            <SeriousnessBanner store={store} pointer={`${arrayPointer}/${current}`} />
          ) : null}
          <GroupForm
            key={current}
            group={group}
            base={`${arrayPointer}/${current}`}
            store={store}
            readOnly={readOnly}
          />
          {children.map((child) => (
            <RepeatableSection
              key={`${child.id}-${current}`}
              group={child}
              allGroups={allGroups}
              parentIndexes={[...parentIndexes, current]}
              store={store}
              readOnly={readOnly}
            >
              {nestedGroups(child.array!, allGroups)}
            </RepeatableSection>
          ))}
        </div>
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title={tx('removeTitle')}
        testId={`${testId}-confirm`}
        buttons={[
          { value: 'remove', label: tx('remove'), primary: true },
          { value: 'cancel', label: tx('cancel') },
        ]}
        onAnswer={(answer) => {
          if (answer === 'remove' && removing !== null) remove(removing);
          setRemoving(null);
        }}
      >
        {tx('removeItem', { index: (removing ?? 0) + 1 })}
      </ConfirmDialog>
    </section>
  );
}

export const RepeatableSection = memo(RepeatableSectionImpl);

/** The seriousness highlight of a reaction: which E.i.3.2 criteria it meets, shown above its form. */
function SeriousnessBanner({ store, pointer }: { store: CaseStore; pointer: string }) {
  const { tx } = useCaseFormText();
  const { pick } = useLanguage();
  const criteria = useCaseValue(store, pointer, (item) => seriousnessOf(item).join(','));
  if (!criteria) return null;
  const labels = criteria
    .split(',')
    .map(
      (key) => getCaseProperty(`/reactions/*/${key}`)?.['x-label'] as { zh: string; en: string } | undefined,
    )
    .map((label) => (label ? pick(label) : ''));
  return (
    <div
      role="status"
      data-testid="seriousness-highlight"
      style={{
        padding: '6px 8px',
        marginBottom: 8,
        background: tokens.colorPaletteRedBackground2,
        color: tokens.colorPaletteRedForeground2,
        borderRadius: 4,
        fontWeight: 600,
      }}
    >
      {tx('seriousHighlight', { criteria: labels.join(', ') })}
    </div>
  );
}

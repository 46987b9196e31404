/**
 * A single record (company information, tenant detail, security settings) as labelled values,
 * with an edit button that opens the generic form; before the first save the form creates it.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { api } from '../../app/api';
import { useSession } from '../../app/SessionContext';
import { useLanguage } from '../../i18n/LanguageContext';
import type { RecordDefinition } from '../definition';
import { recordFields } from './fields';

const FormDialog = lazy(() => import('../form/FormDialog'));

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '900px' },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'minmax(160px, max-content) 1fr',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalS,
    backgroundColor: tokens.colorNeutralBackground1,
    padding: tokens.spacingVerticalM,
    borderRadius: tokens.borderRadiusMedium,
  },
  label: { color: tokens.colorNeutralForeground3 },
  value: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' },
  toolbar: { display: 'flex', gap: tokens.spacingHorizontalS },
});

type Row = Record<string, unknown>;

export function RecordView({
  definition,
  onSaved,
}: {
  definition: RecordDefinition;
  /** Told after a save, e.g. so a page header showing the record reads it again. */
  onSaved?(): void;
}) {
  const styles = useStyles();
  const { t, pick } = useLanguage();
  const { info } = useSession();
  const held = useMemo(() => new Set(info?.permissions ?? []), [info]);
  const [record, setRecord] = useState<Row | null | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  const [editing, setEditing] = useState(false);

  const load = useCallback(async () => {
    setRecord(undefined);
    setFailed(false);
    try {
      setRecord(await api.request<Row | null>(definition.source.path));
    } catch {
      // The request layer has said why; nothing is offered for editing.
      setRecord(null);
      setFailed(true);
    }
  }, [definition.source.path]);
  useEffect(() => void load(), [load]);

  const call = record ? definition.form.update : (definition.form.create ?? definition.form.update);
  const canSave = Boolean(call && (!call.permission || held.has(call.permission)));

  if (record === undefined) return <Spinner size="small" />;
  if (failed)
    return (
      <Text role="alert" data-testid="record-failed">
        {t('record.loadFailed')}
      </Text>
    );
  return (
    <div className={styles.root} data-testid={`record-${definition.id}`}>
      <div className={styles.grid}>
        {record ? (
          recordFields(definition.form, record, pick, t).map((field) => (
            <div key={field.path} style={{ display: 'contents' }} data-testid={`field-${field.path}`}>
              <Text className={styles.label}>{pick(field.label)}</Text>
              <Text className={styles.value}>{field.text}</Text>
            </div>
          ))
        ) : (
          <Text data-testid="record-empty">{t('record.empty')}</Text>
        )}
      </div>
      {canSave ? (
        <div className={styles.toolbar}>
          <Button appearance="primary" onClick={() => setEditing(true)} data-testid="record-edit">
            {record ? t('list.edit') : t('record.fill')}
          </Button>
        </div>
      ) : null}
      {editing ? (
        <Suspense fallback={null}>
          <FormDialog
            definition={definition.form}
            title={pick(definition.title)}
            mode={record ? 'edit' : 'create'}
            row={record ?? undefined}
            onClose={() => setEditing(false)}
            onSaved={() => {
              setEditing(false);
              void load();
              onSaved?.();
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

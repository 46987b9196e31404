/**
 * History versions of a case: the immutable snapshots taken on each submit and on completion
 * (GET /cases/:id/versions), each opened read-only on /previewHistoryVersion, and a field-by-field
 * comparison of any two of them or of one with the current case (field, E2B id, before, after).
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  Button,
  Dropdown,
  Field,
  Link,
  Option,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { caseWorkflow } from '@pv/engine';
import { changedValueText } from '../../case-form/field-text';
import { formatDateTime } from '../../display/values';
import { useNames } from '../../display/useNames';
import { useLanguage } from '../../i18n/LanguageContext';
import { ConfirmDialog, useCaseFormText } from '../../case-form';
import type { VersionComparison, VersionSummary } from './case-api';
import { caseApi } from './case-api';
import { previewPath } from './CasePreviewPage';
import { DataTable } from '../../renderers/table/DataTable';

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: '720px' },
  choose: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'flex-end', flexWrap: 'wrap' },
});

const CURRENT = 'current';

export function VersionsDialog({ caseId, onClose }: { caseId: string | null; onClose: () => void }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const { pick, t } = useLanguage();
  const { tx } = useCaseFormText();
  const { name } = useNames();
  const [versions, setVersions] = useState<VersionSummary[] | null>(null);
  const [from, setFrom] = useState<string>('');
  const [to, setTo] = useState<string>(CURRENT);
  const [comparison, setComparison] = useState<VersionComparison | null>(null);
  const [comparing, setComparing] = useState(false);

  useEffect(() => {
    setVersions(null);
    setComparison(null);
    if (!caseId) return;
    caseApi.versions(caseId).then(
      (answer) => {
        setVersions(answer.items);
        // Default: the latest snapshot against the current case.
        setFrom(answer.items.at(-1)?.id ?? '');
        setTo(CURRENT);
      },
      () => setVersions([]),
    );
  }, [caseId]);

  const describe = (id: string) => {
    if (id === CURRENT) return tx('versionCurrent');
    const v = versions?.find((x) => x.id === id);
    return v ? `V${v.version} · ${formatDateTime(v.at)} · ${v.byName}` : id;
  };
  const choices = [...(versions ?? []).map((v) => v.id), CURRENT];
  const nodeLabel = (node: string) => {
    const label = caseWorkflow.nodes[node]?.label;
    return label ? pick(label) : node;
  };

  const compare = () => {
    if (!caseId || !from || !to) return;
    setComparing(true);
    caseApi
      .compare(caseId, from, to)
      .then(setComparison, () => setComparison(null))
      .finally(() => setComparing(false));
  };

  const picker = (label: string, value: string, set: (v: string) => void, testId: string) => (
    <Field label={label}>
      <Dropdown
        data-testid={testId}
        value={value ? describe(value) : ''}
        selectedOptions={value ? [value] : []}
        onOptionSelect={(_: unknown, d: OptionOnSelectData) => (
          set(d.optionValue ?? ''),
          setComparison(null)
        )}
      >
        {choices.map((id) => (
          <Option key={id} value={id} text={describe(id)}>
            {describe(id)}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );

  return (
    <ConfirmDialog
      open={caseId !== null}
      title={tx('versionsTitle')}
      testId="versions-dialog"
      buttons={[{ value: 'close', label: tx('close') }]}
      onAnswer={onClose}
    >
      <div className={styles.body}>
        {versions === null ? (
          <Spinner />
        ) : versions.length === 0 ? (
          <Text data-testid="versions-empty">{tx('versionsNone')}</Text>
        ) : (
          <DataTable<VersionSummary>
            id="case-versions"
            ariaLabel={tx('versionsTitle')}
            rows={versions}
            rowKey={(v) => v.id}
            rowProps={(v) => ({ 'data-testid': 'version-row', 'data-version-id': v.id })}
            serialOffset={false}
            empty=""
            columns={[
              {
                key: 'version',
                label: tx('versionNumber'),
                width: 110,
                text: (v) => `V${v.version} · r${v.caseRev}`,
              },
              {
                key: 'kind',
                label: tx('versionKind'),
                kind: 'enum',
                text: (v) =>
                  v.kind === 'completed' ? tx('versionKindCompleted') : tx('versionKindSubmitted'),
              },
              { key: 'node', label: tx('history_node'), width: 130, text: (v) => nodeLabel(v.node) },
              { key: 'by', label: tx('history_processer'), width: 110, text: (v) => v.byName },
              { key: 'at', label: tx('history_time'), kind: 'datetime', text: (v) => formatDateTime(v.at) },
            ]}
            actions={{
              labels: [tx('versionOpen')],
              render: (v) => (
                <Link
                  data-testid="version-open"
                  onClick={() => {
                    onClose();
                    navigate(previewPath(caseId!, { versionId: v.id }));
                  }}
                >
                  {tx('versionOpen')}
                </Link>
              ),
            }}
          />
        )}
        {versions?.length ? (
          <div className={styles.choose}>
            {picker(tx('compareFrom'), from, setFrom, 'compare-from')}
            {picker(tx('compareTo'), to, setTo, 'compare-to')}
            <Button
              appearance="primary"
              data-testid="compare-run"
              disabled={!from || !to || from === to || comparing}
              onClick={compare}
            >
              {tx('compare')}
            </Button>
          </div>
        ) : null}
        {comparison ? (
          comparison.changes.length === 0 ? (
            <Text data-testid="compare-none">{tx('compareNoChanges')}</Text>
          ) : (
            <DataTable<VersionComparison['changes'][number]>
              id="case-version-compare"
              ariaLabel={tx('compare')}
              testId="compare-table"
              rows={comparison.changes}
              rowKey={(change) => change.path}
              rowProps={(change) => ({ 'data-testid': 'compare-row', 'data-path': change.path })}
              serialOffset={false}
              maxHeight="50vh"
              empty=""
              columns={[
                {
                  key: 'field',
                  label: tx('compareField'),
                  width: 220,
                  text: (change) => (change.label ? pick(change.label) : change.path),
                },
                { key: 'e2b', label: tx('compareE2b'), width: 100, text: (change) => change.e2b ?? '' },
                {
                  key: 'before',
                  label: tx('compareBefore'),
                  width: 220,
                  text: (change) => changedValueText(change.path, change.before, pick, t, name),
                },
                {
                  key: 'after',
                  label: tx('compareAfter'),
                  width: 220,
                  text: (change) => changedValueText(change.path, change.after, pick, t, name),
                },
              ]}
            />
          )
        ) : null}
      </div>
    </ConfirmDialog>
  );
}

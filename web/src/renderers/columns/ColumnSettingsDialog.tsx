/**
 * The column customisation dialog (width 310): tick the columns to show and order them; the first
 * and last columns are fixed; the serial-number column is always shown and not listed. Reset
 * clears the table's custom layout and reloads.
 */
import { useState } from 'react';
import { Button, Checkbox, makeStyles, tokens } from '@fluentui/react-components';
import { AppDialog } from '../../shell/AppDialog';
import { useLanguage } from '../../i18n/LanguageContext';
import type { TableColumnLayout } from './layout';
import { isFixed, layoutOf, move } from './layout';

export const COLUMN_DIALOG_WIDTH = 310;

const useStyles = makeStyles({
  list: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
    maxHeight: '50vh',
    overflowY: 'auto',
  },
  row: { display: 'flex', alignItems: 'center', justifyContent: 'space-between' },
  arrows: { display: 'flex', gap: tokens.spacingHorizontalXXS },
  serial: { color: tokens.colorNeutralForeground3, padding: `${tokens.spacingVerticalXS} 0` },
});

export interface ColumnChoice {
  key: string;
  label: string;
}

export function ColumnSettingsDialog(props: {
  /** Every column of the table except the serial number, in the current order. */
  columns: ColumnChoice[];
  /** Keys currently shown. */
  shown: ReadonlySet<string>;
  onSave(layout: TableColumnLayout): Promise<void>;
  onReset(): Promise<void>;
  onClose(): void;
}) {
  const styles = useStyles();
  const { t } = useLanguage();
  const [order, setOrder] = useState(props.columns.map((c) => c.key));
  const [checked, setChecked] = useState(() => new Set(props.shown));
  const [busy, setBusy] = useState(false);
  const labels = new Map(props.columns.map((c) => [c.key, c.label]));
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };

  return (
    <AppDialog
      open
      width={COLUMN_DIALOG_WIDTH}
      testId="column-settings"
      title={t('columns.title')}
      actions={
        <>
          <Button onClick={() => void run(props.onReset)} disabled={busy} data-testid="columns-reset">
            {t('columns.reset')}
          </Button>
          <Button onClick={props.onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button
            appearance="primary"
            disabled={busy}
            onClick={() => void run(() => props.onSave(layoutOf(order, checked)))}
            data-testid="columns-save"
          >
            {t('common.save')}
          </Button>
        </>
      }
    >
      <div className={styles.serial}>{t('columns.serialAlways')}</div>
      <div className={styles.list}>
        {order.map((key, index) => {
          const fixed = isFixed(index, order.length);
          return (
            <div key={key} className={styles.row} data-testid={`column-choice-${key}`}>
              <Checkbox
                label={labels.get(key)}
                checked={fixed || checked.has(key)}
                disabled={fixed}
                onChange={(_: unknown, d: { checked: boolean | 'mixed' }) =>
                  setChecked((previous) => {
                    const next = new Set(previous);
                    if (d.checked === true) next.add(key);
                    else next.delete(key);
                    return next;
                  })
                }
              />
              {fixed ? null : (
                <span className={styles.arrows}>
                  <Button
                    size="small"
                    appearance="subtle"
                    aria-label={t('columns.up')}
                    title={t('columns.up')}
                    disabled={isFixed(index - 1, order.length)}
                    onClick={() => setOrder((o) => move(o, index, -1))}
                    data-testid={`column-up-${key}`}
                  >
                    ↑
                  </Button>
                  <Button
                    size="small"
                    appearance="subtle"
                    aria-label={t('columns.down')}
                    title={t('columns.down')}
                    disabled={isFixed(index + 1, order.length)}
                    onClick={() => setOrder((o) => move(o, index, 1))}
                    data-testid={`column-down-${key}`}
                  >
                    ↓
                  </Button>
                </span>
              )}
            </div>
          );
        })}
      </div>
    </AppDialog>
  );
}

/** Workflow history: node, result, opinion, processer, next node and processer, time, data version. */
import { caseWorkflow } from '@pv/engine';
import { useLanguage } from '../../i18n/LanguageContext';
import { formatDateTime } from '../../display/values';
import { ConfirmDialog, useCaseFormText } from '../../case-form';
import type { HistoryEntry } from './case-api';
import { useTransmissionText } from './transmission-text';
import { DataTable } from '../../renderers/table/DataTable';

export function HistoryDialog({
  items,
  actionLabel,
  onClose,
}: {
  items: HistoryEntry[] | null;
  /** The page's action labels (it knows the actions the workflow does not declare, e.g. freeze). */
  actionLabel?: (action: string) => string;
  onClose: () => void;
}) {
  const { pick } = useLanguage();
  const { tx } = useCaseFormText();
  const { historyLine } = useTransmissionText();
  const label = (table: Record<string, unknown>, id: string) => {
    const entry = table[id] as { label?: { zh: string; en: string } } | undefined;
    return entry?.label ? pick(entry.label) : id;
  };
  const actionText = (item: HistoryEntry) => {
    // A transmission line names its receiver, batch and file (ACK codes, the batch it replaces).
    if (item.action === 'transmission') return historyLine(item);
    const text = actionLabel ? actionLabel(item.action) : label(caseWorkflow.actions, item.action);
    return `${text}${item.option ? ` (${item.option})` : ''}`;
  };
  return (
    <ConfirmDialog
      open={items !== null}
      title={tx('historyTitle')}
      testId="history-dialog"
      buttons={[{ value: 'close', label: tx('close') }]}
      onAnswer={onClose}
    >
      <DataTable<HistoryEntry>
        id="case-history"
        ariaLabel={tx('historyTitle')}
        rows={items ?? []}
        rowKey={(item, i) => `${item.at}-${i}`}
        rowProps={(item) => ({ 'data-testid': 'history-row', 'data-result': item.result })}
        serialOffset={false}
        maxHeight="60vh"
        empty=""
        columns={[
          {
            key: 'node',
            label: tx('history_node'),
            width: 130,
            text: (item) => label(caseWorkflow.nodes, item.node),
          },
          {
            key: 'action',
            label: tx('history_action'),
            width: 200,
            text: actionText,
            render: (_, text) => <span data-testid="history-action">{text}</span>,
          },
          { key: 'opinion', label: tx('history_opinion'), width: 160, text: (item) => item.opinion ?? '' },
          {
            key: 'processer',
            label: tx('history_processer'),
            width: 110,
            text: (item) => item.processerName,
          },
          {
            key: 'nextNode',
            label: tx('history_nextNode'),
            width: 130,
            text: (item) => label(caseWorkflow.nodes, item.nextNode),
          },
          {
            key: 'nextProcesser',
            label: tx('history_nextProcesser'),
            width: 110,
            text: (item) => item.nextProcesserName ?? '',
          },
          {
            key: 'time',
            label: tx('history_time'),
            kind: 'datetime',
            text: (item) => formatDateTime(item.at),
          },
          {
            key: 'dataVersion',
            label: tx('history_dataVersion'),
            width: 100,
            text: (item) => `V${item.dataVersion.version} · r${item.dataVersion.rev}`,
          },
        ]}
      />
    </ConfirmDialog>
  );
}

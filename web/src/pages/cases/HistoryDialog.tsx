/** Workflow history: node, result, opinion, processer, next node and processer, time, data version. */
import {
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
} from '@fluentui/react-components';
import { caseWorkflow } from '@pv/engine';
import { useLanguage } from '../../i18n/LanguageContext';
import { formatDateTime } from '../../display/values';
import { ConfirmDialog, useCaseFormText } from '../../case-form';
import type { HistoryEntry } from './case-api';
import { useTransmissionText } from './transmission-text';

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
      <Table size="small" aria-label={tx('historyTitle')}>
        <TableHeader>
          <TableRow>
            {(
              [
                'node',
                'action',
                'opinion',
                'processer',
                'nextNode',
                'nextProcesser',
                'time',
                'dataVersion',
              ] as const
            ).map((key) => (
              <TableHeaderCell key={key}>{tx(`history_${key}`)}</TableHeaderCell>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {(items ?? []).map((item, i) => (
            <TableRow key={i} data-testid="history-row" data-result={item.result}>
              <TableCell>{label(caseWorkflow.nodes, item.node)}</TableCell>
              <TableCell data-testid="history-action">{actionText(item)}</TableCell>
              <TableCell>{item.opinion ?? ''}</TableCell>
              <TableCell>{item.processerName}</TableCell>
              <TableCell>{label(caseWorkflow.nodes, item.nextNode)}</TableCell>
              <TableCell>{item.nextProcesserName ?? ''}</TableCell>
              <TableCell>{formatDateTime(item.at)}</TableCell>
              <TableCell>{`V${item.dataVersion.version} · r${item.dataVersion.rev}`}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ConfirmDialog>
  );
}

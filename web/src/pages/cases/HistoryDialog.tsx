/** Workflow history: node, result, opinion, processer, next node and processer, time, data version. */
import {
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
} from '@fluentui/react-components';
import { caseWorkflow } from '../../../../engine/src/workflow/index';
import { useLanguage } from '../../i18n/LanguageContext';
import { ConfirmDialog, useCaseFormText } from '../../case-form';
import type { HistoryEntry } from './case-api';

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
  const label = (table: Record<string, unknown>, id: string) => {
    const entry = table[id] as { label?: { zh: string; en: string } } | undefined;
    return entry?.label ? pick(entry.label) : id;
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
            <TableRow key={i} data-testid="history-row">
              <TableCell>{label(caseWorkflow.nodes, item.node)}</TableCell>
              <TableCell>{`${actionLabel ? actionLabel(item.action) : label(caseWorkflow.actions, item.action)}${item.option ? ` (${item.option})` : ''}`}</TableCell>
              <TableCell>{item.opinion ?? ''}</TableCell>
              <TableCell>{item.processerName}</TableCell>
              <TableCell>{label(caseWorkflow.nodes, item.nextNode)}</TableCell>
              <TableCell>{item.nextProcesserName ?? ''}</TableCell>
              <TableCell>{new Date(item.at).toLocaleString()}</TableCell>
              <TableCell>{`V${item.dataVersion.version} · r${item.dataVersion.rev}`}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ConfirmDialog>
  );
}

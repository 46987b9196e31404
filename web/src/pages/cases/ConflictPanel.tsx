/**
 * The answer to a stale save (409): what the other users changed since this page read the case,
 * field by field with who and when, and beside it this user's value where both touched a field.
 * Nothing is written until the user chooses: keep theirs and re-apply mine on top, or take theirs.
 */
import {
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
} from '@fluentui/react-components';
import { useLanguage } from '../../i18n/LanguageContext';
import { ConfirmDialog, getAt, useCaseFormText } from '../../case-form';
import type { ConflictAnswer } from './case-api';
import { formatDateTime } from '../../display/values';

const show = (value: unknown) =>
  value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

export function ConflictDialog({
  conflict,
  mine,
  touched,
  onAnswer,
}: {
  conflict: ConflictAnswer | null;
  mine: unknown;
  touched: ReadonlySet<string>;
  onAnswer: (choice: 'reapply' | 'theirs' | 'cancel') => void;
}) {
  const { pick } = useLanguage();
  const { tx } = useCaseFormText();
  const overlaps = (path: string) =>
    [...touched].some((t) => t === path || t.startsWith(`${path}/`) || path.startsWith(`${t}/`));
  return (
    <ConfirmDialog
      open={conflict !== null}
      title={tx('conflictTitle')}
      testId="conflict-dialog"
      buttons={[
        { value: 'reapply', label: tx('conflictReapply'), primary: true },
        { value: 'theirs', label: tx('conflictTheirs') },
        { value: 'cancel', label: tx('cancel') },
      ]}
      onAnswer={(value) => onAnswer(value as 'reapply' | 'theirs' | 'cancel')}
    >
      <Text block>{tx('conflictIntro', { count: conflict?.changes.length ?? 0 })}</Text>
      <Table size="small" aria-label={tx('conflictTitle')}>
        <TableHeader>
          <TableRow>
            <TableHeaderCell>{tx('field')}</TableHeaderCell>
            <TableHeaderCell>{tx('before')}</TableHeaderCell>
            <TableHeaderCell>{tx('theirValue')}</TableHeaderCell>
            <TableHeaderCell>{tx('myValue')}</TableHeaderCell>
            <TableHeaderCell>{tx('changedBy')}</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {(conflict?.changes ?? []).map((change) => (
            <TableRow key={change.path} data-testid="conflict-change" data-pointer={change.path}>
              <TableCell>{`${change.e2b ? `${change.e2b} ` : ''}${change.label ? pick(change.label) : change.path}`}</TableCell>
              <TableCell>{show(change.before)}</TableCell>
              <TableCell>{show(change.after)}</TableCell>
              <TableCell>{overlaps(change.path) ? show(getAt(mine, change.path)) : '—'}</TableCell>
              <TableCell>{`${change.by} · ${formatDateTime(change.at)}`}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ConfirmDialog>
  );
}

/** Rejecting an import: irreversible, so it is confirmed, with an optional reason. */
import { useState } from 'react';
import { Field, Text, Textarea } from '@fluentui/react-components';
import { ConfirmDialog } from '../../case-form';
import { importsApi } from './api';
import type { ImportKind, ImportRecord } from './api';
import { useImportText } from './text';

export function RejectDialog({
  kind,
  record,
  onClose,
  onRejected,
}: {
  kind: ImportKind;
  record: Pick<ImportRecord, 'id' | 'fileName'>;
  onClose: () => void;
  onRejected: () => void;
}) {
  const { it } = useImportText();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <ConfirmDialog
      open
      testId="imports-reject-dialog"
      title={it('uiRejectTitle')}
      buttons={[
        { value: 'cancel', label: it('uiCancel') },
        { value: 'reject', label: it('uiRejectConfirm'), primary: true },
      ]}
      onAnswer={(value) => {
        if (value !== 'reject') return onClose();
        if (busy) return;
        setBusy(true);
        importsApi.reject(kind, record.id, reason.trim()).then(onRejected, () => setBusy(false));
      }}
    >
      <Text block>{it('uiRejectWarning', { fileName: record.fileName })}</Text>
      <Field label={it('uiRejectReason')}>
        <Textarea value={reason} onChange={(_, data) => setReason(data.value)} maxLength={2000} />
      </Field>
    </ConfirmDialog>
  );
}

/**
 * E2B export dialog: choose a receiver and a format; the server validates R3 against the XSD and
 * either answers the file (downloaded here) or refuses with the XSD errors (listed here, nothing
 * kept). The export history with ACK upload opens from the same dialog.
 */
import { useEffect, useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  Field,
  MessageBar,
  MessageBarBody,
  Option,
  Radio,
  RadioGroup,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { RequestError, saveFile } from '../../api/request';
import { notify } from '../../app/notify';
import { useSession } from '../../app/SessionContext';
import type { ExportFormat, ExportSelection, ReceiverOption } from './api';
import { exportApi } from './api';
import { ExportHistory } from './ExportHistory';
import { useExportText } from './text';
import { useLanguage } from '../../i18n/LanguageContext';

const useStyles = makeStyles({
  surface: { maxWidth: '1200px', width: '95vw' },
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  errors: { maxHeight: '240px', overflowY: 'auto', margin: 0, paddingLeft: tokens.spacingHorizontalL },
  xpath: { wordBreak: 'break-all', color: tokens.colorNeutralForeground3 },
});

/** Whether the user holds a permission key (or its user-bound form: SPEC 6). */
function useGranted(permission: string): boolean {
  const { info } = useSession();
  return Boolean(
    info?.permissions.includes(permission) || info?.permissions.includes(`${permission}:${info.user.id}`),
  );
}

/** A finding of the receiver's pre-send business rules (server/src/exports/presend.ts). */
interface RuleFinding {
  ruleId: string;
  severity: 'error' | 'warning';
  e2b: string | null;
  xpath: string;
  report: number;
  reportCode: string | null;
  message: { zh: string; en: string };
}

interface XsdError {
  message: string;
  line?: number;
}

export function ExportDialog({
  open,
  selection,
  onClose,
}: {
  open: boolean;
  selection: ExportSelection;
  onClose: () => void;
}) {
  const styles = useStyles();
  const { et } = useExportText();
  const [receivers, setReceivers] = useState<ReceiverOption[] | null>(null);
  const [receiverId, setReceiverId] = useState('');
  const [format, setFormat] = useState<ExportFormat>('r3');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<{
    message: string;
    xsdErrors: XsdError[];
    findings: RuleFinding[];
    confirmRequired: boolean;
  } | null>(null);
  const { pick } = useLanguage();
  const [history, setHistory] = useState(false);
  const [historyKey, setHistoryKey] = useState(0);
  // The history and ACK upload are the case export's (activecase:export) routes.
  const canHistory = useGranted('activecase:export');

  useEffect(() => {
    if (!open) return;
    setRefusal(null);
    setHistory(false);
    setReceivers(null);
    void exportApi.receivers().then(
      (list) => {
        setReceivers(list);
        const first = list[0];
        setReceiverId((current) =>
          list.some((r) => r.receiverId === current) ? current : (first?.receiverId ?? ''),
        );
        if (first) setFormat(first.format);
      },
      () => setReceivers([]),
    );
  }, [open]);

  const receiver = receivers?.find((r) => r.receiverId === receiverId);
  const summary =
    'caseId' in selection
      ? et('uiSelectionOne', { code: selection.reportCode ?? selection.caseId })
      : 'caseIds' in selection
        ? et('uiSelectionIds', { count: selection.caseIds.length })
        : et('uiSelectionQuery');

  const run = async (confirmWarnings = false) => {
    if (!receiver) {
      notify.toast('warning', et('uiChooseReceiver'));
      return;
    }
    setBusy(true);
    setRefusal(null);
    try {
      const file = await exportApi.run(selection, receiver.receiverId, format, confirmWarnings);
      saveFile(file);
      notify.toast('success', et('uiExported', { file: file.fileName }));
      setHistoryKey((k) => k + 1);
    } catch (error) {
      if (error instanceof RequestError) {
        const data = (error.data ?? {}) as {
          xsdErrors?: XsdError[];
          findings?: RuleFinding[];
          confirmRequired?: boolean;
        };
        setRefusal({
          message: error.message,
          xsdErrors: data.xsdErrors ?? [],
          findings: data.findings ?? [],
          confirmRequired: data.confirmRequired === true,
        });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} modalType="alert">
      <DialogSurface className={styles.surface} data-testid="export-dialog">
        <DialogBody>
          <DialogTitle>{history ? et('uiHistory') : et('uiExportTitle')}</DialogTitle>
          <DialogContent className={styles.body}>
            {history ? (
              <ExportHistory key={historyKey} caseId={'caseId' in selection ? selection.caseId : undefined} />
            ) : (
              <>
                <Text data-testid="export-selection">{summary}</Text>
                {receivers === null ? (
                  <Spinner size="small" />
                ) : receivers.length === 0 ? (
                  <MessageBar intent="warning">
                    <MessageBarBody>{et('uiNoReceivers')}</MessageBarBody>
                  </MessageBar>
                ) : (
                  <>
                    <Field label={et('uiReceiver')} required>
                      <Dropdown
                        data-testid="export-receiver"
                        value={receiver ? `${receiver.name} (${receiver.receiverIdentifier})` : ''}
                        selectedOptions={receiverId ? [receiverId] : []}
                        onOptionSelect={(_: unknown, data: OptionOnSelectData) => {
                          const chosen = receivers.find((r) => r.receiverId === data.optionValue);
                          setReceiverId(data.optionValue ?? '');
                          if (chosen) setFormat(chosen.format);
                        }}
                      >
                        {receivers.map((r) => (
                          <Option
                            key={r.receiverId}
                            value={r.receiverId}
                            text={`${r.name} (${r.receiverIdentifier})`}
                          >
                            {`${r.name} (${r.receiverIdentifier}) · ${r.profile.toUpperCase()}`}
                          </Option>
                        ))}
                      </Dropdown>
                    </Field>
                    <Field label={et('uiFormat')}>
                      <RadioGroup
                        layout="horizontal"
                        value={format}
                        onChange={(_, data) => setFormat(data.value as ExportFormat)}
                      >
                        <Radio value="r3" label={et('uiFormatR3')} data-testid="export-format-r3" />
                        <Radio value="r2" label={et('uiFormatR2')} data-testid="export-format-r2" />
                      </RadioGroup>
                    </Field>
                  </>
                )}
                {busy ? <Spinner size="small" label={et('uiExporting')} /> : null}
                {refusal ? (
                  <MessageBar intent="error" data-testid="export-refusal">
                    <MessageBarBody>
                      <Text weight="semibold">{refusal.message}</Text>
                      {refusal.xsdErrors.length ? (
                        <>
                          <Text block>{et('uiXsdErrors')}</Text>
                          <ol className={styles.errors} data-testid="export-xsd-errors">
                            {refusal.xsdErrors.map((e, i) => (
                              <li key={i}>
                                {e.line ? `${et('uiLine', { line: e.line })}: ` : ''}
                                {e.message}
                              </li>
                            ))}
                          </ol>
                        </>
                      ) : null}
                      {refusal.findings.length ? (
                        <ol className={styles.errors} data-testid="export-rule-findings">
                          {refusal.findings.map((f, i) => (
                            <li key={i}>
                              {`${f.ruleId} · ${f.severity === 'error' ? et('uiRuleRejection') : et('uiRuleWarning')} · ${f.reportCode ?? `#${f.report}`}${f.e2b ? ` · ${f.e2b}` : ''}: ${pick(f.message)}`}
                              <Text block size={200} className={styles.xpath}>
                                {f.xpath}
                              </Text>
                            </li>
                          ))}
                        </ol>
                      ) : null}
                      {refusal.confirmRequired ? (
                        <Button
                          data-testid="export-confirm-warnings"
                          disabled={busy}
                          onClick={() => void run(true)}
                        >
                          {et('uiConfirmWarnings')}
                        </Button>
                      ) : null}
                    </MessageBarBody>
                  </MessageBar>
                ) : null}
              </>
            )}
          </DialogContent>
          <DialogActions>
            {canHistory ? (
              <Button data-testid="export-history-toggle" onClick={() => setHistory((h) => !h)}>
                {history ? et('uiBack') : et('uiHistory')}
              </Button>
            ) : null}
            {!history ? (
              <Button
                appearance="primary"
                data-testid="export-run"
                disabled={busy || !receiver}
                onClick={() => void run()}
              >
                {et('uiDoExport')}
              </Button>
            ) : null}
            <Button data-testid="export-close" onClick={onClose}>
              {et('uiClose')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/**
 * The export action of the case list and the case detail header: a button (shown with the export
 * permission) that opens the dialog for the given selection.
 */
export function ExportButton({
  selection,
  permission,
  disabled,
}: {
  selection: ExportSelection;
  permission: 'activecase:export' | 'casemanagement:caseview:export';
  disabled?: boolean;
}) {
  const { et } = useExportText();
  const [open, setOpen] = useState(false);
  if (!useGranted(permission)) return null;
  return (
    <>
      <Button data-testid="case-export" disabled={disabled} onClick={() => setOpen(true)}>
        {et('uiExport')}
      </Button>
      {open ? <ExportDialog open selection={selection} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/**
 * Labels of a case's E2B transmission: the status (code list transmissionStatus) and the workflow
 * history's transmission lines (`uiTransmission*` of schemas/i18n/cases), in the display language.
 */
import { useCallback } from 'react';
import { codelists } from '@pv/engine';
import { useLanguage } from '../../i18n/LanguageContext';
import type { HistoryEntry } from './case-api';
import type { CasesKey } from './cases-text';
import { useCasesText } from './cases-text';

const LINE_KEYS: Record<string, CasesKey> = {
  sent: 'uiTransmissionSent',
  acknowledged: 'uiTransmissionAcknowledged',
  rejected: 'uiTransmissionRejected',
  handled: 'uiTransmissionHandled',
  resubmitted: 'uiTransmissionResubmitted',
};

const fill = (text: string, params: Record<string, unknown>) =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined || params[name] === null ? '' : String(params[name]),
  );

export function useTransmissionText() {
  const { pick } = useLanguage();
  const { ct } = useCasesText();
  const statusLabel = useCallback(
    (status: string) => {
      const entry = codelists.transmissionStatus?.values.find((value) => value.code === status);
      return entry ? pick(entry) : status;
    },
    [pick],
  );
  /** "Transmitted to FDA FAERS (batch ..., file ...)" for a transmission line of the history. */
  const historyLine = useCallback(
    (entry: HistoryEntry) => {
      const details = entry.details ?? {};
      const key = LINE_KEYS[String(details.status)];
      const text = key
        ? fill(ct(key), {
            receiver: details.receiverName ?? details.receiverIdentifier,
            batch: details.batchId,
            file: details.fileName,
            ack: [details.ackCode, details.reportAckCode].filter(Boolean).join('/'),
            replaces: details.replacesBatchId,
          })
        : '';
      const frozen = details.frozen === true ? ` ${ct('uiTransmissionFrozen')}` : '';
      return `${ct('uiTransmissionAction')}: ${text}${frozen}`;
    },
    [ct],
  );
  return { statusLabel, historyLine };
}

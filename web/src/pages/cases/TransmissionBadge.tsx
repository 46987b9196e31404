/**
 * The case header's E2B transmission status: the worst over its receivers (rejected, failure handled,
 * resubmitted, sent, acknowledged), each receiver's status and ACK error text in the tooltip (a
 * rejection's text also beside it), and whether every receiver of a submission plan acknowledged the
 * current version.
 */
import { Badge, Text, Tooltip } from '@fluentui/react-components';
import type { BadgeProps } from '@fluentui/react-components';
import type { CaseTransmission, TransmissionStatus } from './case-api';
import { useCasesText } from './cases-text';
import { useTransmissionText } from './transmission-text';

/** Badge colours by status; a status without one is informative. */
const COLOR: Partial<Record<TransmissionStatus, BadgeProps['color']>> = {
  rejected: 'danger',
  handled: 'warning',
  resubmitted: 'informative',
  sent: 'informative',
  acknowledged: 'success',
};

export function TransmissionBadge({ transmission }: { transmission: CaseTransmission | null | undefined }) {
  const { ct } = useCasesText();
  const { statusLabel } = useTransmissionText();
  // A follow-up version not transmitted yet has no status of its own (its receivers are older).
  if (!transmission?.status) return null;
  const details = transmission.receivers
    .map(
      (r) =>
        `${r.receiverName} (${r.receiverIdentifier}) · ${r.batchId} · V${r.version ?? '?'}: ${statusLabel(r.status)}${r.text ? ` - ${r.text}` : ''}`,
    )
    .join('\n');
  // A rejection's ACK error text stays in sight: the case waits at its node for handling.
  const rejected = transmission.receivers
    .filter((r) => r.status === 'rejected')
    .map((r) => `${r.receiverName}: ${r.text ?? statusLabel(r.status)}`);
  return (
    <>
      <Tooltip content={details} relationship="description">
        <Badge
          color={COLOR[transmission.status] ?? 'informative'}
          data-testid="case-transmission"
          data-status={transmission.status}
        >
          {`${ct('uiTransmissionStatus')}: ${statusLabel(transmission.status)}`}
        </Badge>
      </Tooltip>
      {rejected.length ? (
        <Text size={200} data-testid="case-transmission-rejection" title={rejected.join('\n')}>
          {rejected.join('; ')}
        </Text>
      ) : null}
      {transmission.plannedAcknowledged ? (
        <Badge color="success" appearance="outline" data-testid="case-transmission-planned-acknowledged">
          {ct('uiTransmissionPlannedAcknowledged')}
        </Badge>
      ) : null}
    </>
  );
}

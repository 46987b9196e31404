/**
 * RJSF's widget for `format: date` in the administration forms: the date typed in ISO order
 * (2026-11-20, the same in zh and en) or picked on a calendar, instead of the browser's own control.
 */
import type { WidgetProps } from '@rjsf/utils';
import { IsoDateInput } from '../../display/IsoDateInput';

export function DateWidget({ id, value, onChange, disabled, readonly, label }: WidgetProps) {
  return (
    <IsoDateInput
      id={id}
      ariaLabel={label}
      value={typeof value === 'string' ? value : ''}
      disabled={disabled || readonly}
      onChange={(next) => onChange(next || undefined)}
    />
  );
}

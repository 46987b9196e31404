/**
 * After a call succeeds: the answer's named result (an activation or reset link path) is shown
 * for the user to copy; otherwise a success toast with the server's message.
 */
import { notify } from '../app/notify';
import type { Envelope } from '../api/request';
import { valueAt } from './definition';

export async function reportResult(
  answer: Envelope<Record<string, unknown> | null>,
  field: string | undefined,
  fallback: string,
): Promise<void> {
  const result = field ? valueAt(answer.data ?? {}, field) : undefined;
  if (result) {
    await notify.ask({
      titleKey: 'list.resultTitle',
      message: { text: `${window.location.origin}${String(result)}` },
      buttons: [{ labelKey: 'common.ok', value: 'ok', appearance: 'primary' }],
    });
  } else notify.toast('success', answer.msg || fallback);
}

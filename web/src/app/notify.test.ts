import { describe, expect, it, vi } from 'vitest';
import { LOADING_AUTO_CLOSE_MS, notify } from './notify';

describe('notify', () => {
  it('closes the loading overlay by itself after 5 s', () => {
    vi.useFakeTimers();
    try {
      notify.startLoading();
      expect(notify.loading()).toBe(true);
      vi.advanceTimersByTime(LOADING_AUTO_CLOSE_MS - 1);
      expect(notify.loading()).toBe(true);
      vi.advanceTimersByTime(1);
      expect(notify.loading()).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops loading early and counts overlapping loads', () => {
    const a = notify.startLoading();
    const b = notify.startLoading();
    a();
    a();
    expect(notify.loading()).toBe(true);
    b();
    expect(notify.loading()).toBe(false);
  });

  it('keeps one dialog per tag and answers every asker', async () => {
    const buttons = [{ labelKey: 'common.ok', value: 'ok' }];
    const first = notify.ask({ titleKey: 't', message: { text: 'x' }, buttons, tag: 'session' });
    const second = notify.ask({ titleKey: 't', message: { text: 'x' }, buttons, tag: 'session' });
    expect(notify.dialogs()).toHaveLength(1);
    notify.answer(notify.dialogs()[0]!.id, 'ok');
    await expect(first).resolves.toBe('ok');
    await expect(second).resolves.toBe('ok');
    expect(notify.dialogs()).toHaveLength(0);
  });
});

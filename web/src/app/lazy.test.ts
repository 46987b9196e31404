import { describe, expect, it, vi } from 'vitest';
import { CHUNK_TIMEOUT_MS, ChunkLoadError, withChunkTimeout } from './lazy';

describe('route chunks', () => {
  it('gives up after 120 s with a ChunkLoadError', async () => {
    vi.useFakeTimers();
    try {
      const loading = withChunkTimeout(() => new Promise<never>(() => {}));
      const outcome = expect(loading).rejects.toBeInstanceOf(ChunkLoadError);
      await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS);
      await outcome;
    } finally {
      vi.useRealTimers();
    }
  });

  it('wraps a failed import and passes a loaded one through', async () => {
    await expect(
      withChunkTimeout(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))),
    ).rejects.toThrow(/dynamically imported/);
    await expect(withChunkTimeout(() => Promise.resolve(42))).resolves.toBe(42);
  });
});

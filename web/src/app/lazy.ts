/**
 * Route chunks load on demand with a 120 s timeout (SPEC 9); a chunk that fails or times out
 * raises ChunkLoadError, which the route error element answers with a reload offer.
 */
import type { ComponentType } from 'react';

export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'ChunkLoadError';
  }
}

export function withChunkTimeout<T>(load: () => Promise<T>, ms = CHUNK_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`chunk load timed out after ${ms / 1000} s`)), ms);
  });
  return Promise.race([load(), timeout])
    .catch((error: unknown) => {
      throw new ChunkLoadError(error);
    })
    .finally(() => clearTimeout(timer));
}

/** A react-router `lazy` loader for a module whose default export is the page component. */
export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  return async () => ({ Component: (await withChunkTimeout(load)).default });
}

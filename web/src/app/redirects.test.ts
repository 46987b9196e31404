import { describe, expect, it } from 'vitest';
import { PUBLIC_LANDING, redirectsFor } from './redirects';
import { builtPaths } from './pages';

describe('redirects', () => {
  it('sends / to /login, and /public to the project list once that page is built', () => {
    expect(redirectsFor(new Set())).toEqual([{ from: '/', to: '/login' }]);
    expect(redirectsFor(new Set([PUBLIC_LANDING]))).toEqual([
      { from: '/', to: '/login' },
      { from: '/public', to: PUBLIC_LANDING },
    ]);
  });

  it('serves no redirect to a page that is not built', () => {
    for (const { to } of redirectsFor(builtPaths)) {
      expect(to === '/login' || builtPaths.has(to), to).toBe(true);
    }
  });
});

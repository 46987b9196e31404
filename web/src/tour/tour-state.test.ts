import { beforeEach, describe, expect, it, vi } from 'vitest';

/** The server's tour flags, as the preferences routes keep them for the signed-in user. */
const flags = { main: false, case: false };
const calls: string[] = [];
vi.mock('../app/api', () => ({
  api: {
    request: vi.fn(async (path: string, options: { body?: unknown } = {}) => {
      calls.push(`${options.body === undefined ? 'GET' : 'POST'} ${path}`);
      const tour = path.startsWith('/preferences/tour/case') ? 'case' : 'main';
      if (path.endsWith('/seen')) flags[tour] = true;
      return { seen: flags[tour] };
    }),
  },
}));

const state = await import('./tour-state');

beforeEach(() => {
  flags.main = false;
  flags.case = false;
  calls.length = 0;
});

describe('tour state', () => {
  it('starts the first-login tour when unseen, and records it (not the case tour) when finished away from a case page', async () => {
    await state.startTourIfUnseen();
    expect(state.tourState.running()).toBe('main');
    await state.finishTour(false);
    expect(state.tourState.running()).toBeNull();
    expect(flags).toEqual({ main: true, case: false });
    await state.startTourIfUnseen();
    expect(state.tourState.running()).toBeNull();
  });

  it('asks the case tour flag once per sign-in and records it when the case tour ends', async () => {
    flags.main = true;
    await state.startTourIfUnseen();
    expect(await state.caseTourPending()).toBe(true);
    state.startCaseTour();
    expect(state.tourState.running()).toBe('case');
    await state.finishTour(true);
    expect(flags).toEqual({ main: true, case: true });
    expect(await state.caseTourPending()).toBe(false);
    expect(calls.filter((c) => c === 'GET /preferences/tour/case')).toHaveLength(1);
    expect(calls).toContain('POST /preferences/tour/case/seen');
  });

  it('counts a first-login tour or a Help replay that showed the case-page steps as the case tour too', async () => {
    await state.startTourIfUnseen();
    await state.finishTour(true);
    expect(flags).toEqual({ main: true, case: true });
    expect(await state.caseTourPending()).toBe(false);
  });

  it('does not start the case tour over a running tour', async () => {
    state.replayTour();
    state.startCaseTour();
    expect(state.tourState.running()).toBe('main');
    await state.finishTour(false);
  });
});

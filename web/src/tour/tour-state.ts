/**
 * Which guided tour is showing. The first-login tour (`main`) starts by itself on the user's first
 * login and again whenever the user asks for help; the case-page tour (`case`) starts by itself at
 * the user's first visit of a case page. The server keeps a "seen" flag per user and tour.
 */
import { api } from '../app/api';

export type TourId = 'main' | 'case';

type Listener = (running: TourId | null) => void;
const listeners = new Set<Listener>();
let running: TourId | null = null;
/** The case-page tour's flag for the signed-in user, once asked (so each visit does not ask again). */
let caseTourSeen: Promise<boolean> | null = null;

function set(next: TourId | null) {
  running = next;
  listeners.forEach((listener) => listener(running));
}

export const tourState = {
  running: () => running,
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** The server's flag of a tour (`/preferences/tour` without an id is the first-login tour). */
function flagPath(tour: TourId): string {
  return tour === 'main' ? '/preferences/tour' : `/preferences/tour/${tour}`;
}

async function seen(tour: TourId): Promise<boolean> {
  const answer = await api.request<{ seen: boolean }>(flagPath(tour), { silent: true });
  return answer.seen;
}

async function recordSeen(tour: TourId): Promise<void> {
  if (tour === 'case') caseTourSeen = Promise.resolve(true);
  await api.request(`${flagPath(tour)}/seen`, { body: {}, silent: true }).catch(() => undefined);
}

/** Help: the whole tour again, with the case-page steps when a case page is on screen. */
export function replayTour(): void {
  set('main');
}

/** Starts the first-login tour when the signed-in user has never finished it (once per sign-in). */
export async function startTourIfUnseen(): Promise<void> {
  caseTourSeen = null;
  if (!(await seen('main'))) set('main');
}

/** Whether the case-page tour should start by itself for the signed-in user. */
export async function caseTourPending(): Promise<boolean> {
  caseTourSeen ??= seen('case').catch((error: unknown) => {
    caseTourSeen = null;
    throw error;
  });
  return !(await caseTourSeen);
}

export function startCaseTour(): void {
  if (running === null) set('case');
}

/**
 * Ends the tour and records it as seen (so it does not start again). A tour that pointed at the
 * case-page steps (the first-login tour or Help on a case page) counts as the case-page tour too.
 */
export async function finishTour(coveredCasePage: boolean): Promise<void> {
  const tour = running;
  set(null);
  const tours = new Set<TourId>(tour ? [tour] : []);
  if (coveredCasePage) tours.add('case');
  await Promise.all([...tours].map(recordSeen));
}

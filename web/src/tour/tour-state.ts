/**
 * Whether the guided tour is showing. It starts by itself on the first login (the server keeps a
 * "seen" flag per user) and again whenever the user asks for help.
 */
import { api } from '../app/api';

type Listener = (running: boolean) => void;
const listeners = new Set<Listener>();
let running = false;

function set(next: boolean) {
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

export function replayTour(): void {
  set(true);
}

/** Starts the tour when the signed-in user has never finished it. */
export async function startTourIfUnseen(): Promise<void> {
  const { seen } = await api.request<{ seen: boolean }>('/preferences/tour', { silent: true });
  if (!seen) set(true);
}

/** Ends the tour and records it as seen (so it does not start again at the next login). */
export async function finishTour(): Promise<void> {
  set(false);
  await api.request('/preferences/tour/seen', { body: {}, silent: true }).catch(() => undefined);
}

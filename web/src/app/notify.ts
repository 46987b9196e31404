/**
 * A small bridge from code outside React (the request layer, session watchers) to the shell's
 * toasts, dialogs and loading overlay. The shell subscribes; callers just call.
 */

export interface ToastMessage {
  id: number;
  kind: 'success' | 'warning' | 'error' | 'info';
  text: string;
}

export interface DialogButton {
  /** Catalogue key of the label. */
  labelKey: string;
  value: string;
  appearance?: 'primary' | 'secondary';
}

export interface DialogRequest {
  id: number;
  /** Catalogue keys. */
  titleKey: string;
  /** Message already in the display language (server messages) or a catalogue key. */
  message: { text: string } | { key: string };
  buttons: DialogButton[];
  /** Only one dialog per tag is open at a time (e.g. many 400001 answers show one dialog). */
  tag?: string;
  resolve(value: string): void;
}

type Listener = () => void;

let nextId = 1;
let toasts: ToastMessage[] = [];
let dialogs: DialogRequest[] = [];
let loadingCount = 0;
const listeners = new Set<Listener>();
const emit = () => listeners.forEach((listener) => listener());

export const notify = {
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  toasts: () => toasts,
  dialogs: () => dialogs,
  loading: () => loadingCount > 0,

  toast(kind: ToastMessage['kind'], text: string) {
    toasts = [...toasts, { id: nextId++, kind, text }];
    emit();
  },
  takeToasts(): ToastMessage[] {
    const taken = toasts;
    toasts = [];
    return taken;
  },

  /** Opens a dialog; resolves with the chosen button's value. */
  ask(request: Omit<DialogRequest, 'id' | 'resolve'>): Promise<string> {
    const open = request.tag ? dialogs.find((d) => d.tag === request.tag) : undefined;
    if (open)
      return new Promise((resolve) => {
        const previous = open.resolve;
        open.resolve = (value) => {
          previous(value);
          resolve(value);
        };
      });
    return new Promise((resolve) => {
      dialogs = [...dialogs, { ...request, id: nextId++, resolve }];
      emit();
    });
  },
  answer(id: number, value: string) {
    const dialog = dialogs.find((d) => d.id === id);
    dialogs = dialogs.filter((d) => d.id !== id);
    emit();
    dialog?.resolve(value);
  },

  /** Shows the loading overlay until the returned function is called, or for 5 s at most (SPEC 9). */
  startLoading(): () => void {
    loadingCount += 1;
    emit();
    let done = false;
    const stop = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      loadingCount -= 1;
      emit();
    };
    const timer = setTimeout(stop, LOADING_AUTO_CLOSE_MS);
    return stop;
  },
};

export const LOADING_AUTO_CLOSE_MS = 5000;

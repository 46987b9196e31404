/**
 * The case being edited: one document, written field by field. Forms subscribe to the pointer
 * prefix they show; a write notifies only subscribers whose prefix overlaps the written pointer, so
 * typing in a drug field re-renders neither the other tabs nor the other drugs.
 */
import { FindingsBoard } from './findings';
import type { Json } from './pointer';
import { getAt, setAt } from './pointer';

type Listener = () => void;
/** A write: one field (`pointer`), or the whole document (pointer ''). */
type WriteListener = (pointer: string, value: Json) => void;

export class CaseStore {
  private document: Json;
  private listeners = new Map<string, Set<Listener>>();
  private dirtyListeners = new Set<Listener>();
  private dirty = false;
  private focusListeners = new Set<(pointer: string) => void>();
  private writeListeners = new Set<WriteListener>();
  /** Writes since the last save, by pointer: what the conflict dialog lists as "your changes". */
  readonly touched = new Set<string>();
  /** What the configuration's check finds in the document now (case-check.ts fills it). */
  readonly findings = new FindingsBoard();

  constructor(document: Json) {
    this.document = document;
  }

  get doc(): Json {
    return this.document;
  }

  get isDirty(): boolean {
    return this.dirty;
  }

  get(pointer: string): Json {
    return getAt(this.document, pointer);
  }

  /** Writes one value; `silentFor` is the listener that made the change (it already shows it). */
  set(pointer: string, value: Json, silentFor?: Listener): void {
    if (Object.is(getAt(this.document, pointer), value)) return;
    this.document = setAt(this.document, pointer, value);
    this.touched.add(pointer);
    this.markDirty(true);
    this.notify(pointer, silentFor);
    for (const listener of this.writeListeners) listener(pointer, value);
  }

  /** Replaces the document (load, save answer, conflict resolution). */
  replace(document: Json, dirty = false): void {
    this.document = document;
    if (!dirty) this.touched.clear();
    this.markDirty(dirty);
    this.notify('', undefined);
    for (const listener of this.writeListeners) listener('', document);
  }

  /** Every write, with its pointer and value (the check follows the document with them). */
  onWrite(listener: WriteListener): () => void {
    this.writeListeners.add(listener);
    return () => this.writeListeners.delete(listener);
  }

  subscribe(prefix: string, listener: Listener): () => void {
    let set = this.listeners.get(prefix);
    if (!set) this.listeners.set(prefix, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  onDirtyChange(listener: Listener): () => void {
    this.dirtyListeners.add(listener);
    return () => this.dirtyListeners.delete(listener);
  }

  /** Asks the sections holding `pointer` to show it (a check finding was chosen). */
  requestFocus(pointer: string): void {
    for (const listener of this.focusListeners) listener(pointer);
  }

  onFocusRequest(listener: (pointer: string) => void): () => void {
    this.focusListeners.add(listener);
    return () => this.focusListeners.delete(listener);
  }

  private markDirty(dirty: boolean): void {
    if (this.dirty === dirty) return;
    this.dirty = dirty;
    for (const listener of this.dirtyListeners) listener();
  }

  private notify(pointer: string, silentFor: Listener | undefined): void {
    for (const [prefix, set] of this.listeners) {
      const overlaps =
        pointer === '' ||
        prefix === '' ||
        pointer === prefix ||
        pointer.startsWith(`${prefix}/`) ||
        prefix.startsWith(`${pointer}/`);
      if (!overlaps) continue;
      for (const listener of set) if (listener !== silentFor) listener();
    }
  }
}

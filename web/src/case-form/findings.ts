/**
 * The findings the case form shows: the configuration's own check (the server's AJV standalone
 * module and declared rules, run by case-check.ts) posts them here by field pointer; each field
 * subscribes to its own pointer and the tab list to the counts, so a new result re-renders only
 * the fields whose findings changed.
 */
import type { CaseTabs, Finding } from '@pv/engine';
import { tabOfPointer } from '@pv/engine';

type Listener = () => void;

const NONE: readonly Finding[] = Object.freeze([]);

export interface TabCount {
  errors: number;
  warnings: number;
}

export class FindingsBoard {
  private byPointer = new Map<string, Finding[]>();
  private listeners = new Map<string, Set<Listener>>();
  private countListeners = new Set<Listener>();
  private countsCache = new WeakMap<CaseTabs, Map<string, TabCount>>();
  private version = 0;
  /** True once a result arrived (before that the form shows no findings, not "none"). */
  ready = false;

  /** Findings of one field (errors first, as the check sorts them). */
  at(pointer: string): readonly Finding[] {
    return this.byPointer.get(pointer) ?? NONE;
  }

  /** Every finding, in pointer order (what the browser test compares with the server's check). */
  all(): Finding[] {
    return [...this.byPointer.values()].flat();
  }

  subscribe(pointer: string, listener: Listener): () => void {
    let set = this.listeners.get(pointer);
    if (!set) this.listeners.set(pointer, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  onCounts(listener: Listener): () => void {
    this.countListeners.add(listener);
    return () => this.countListeners.delete(listener);
  }

  /** The version of the counts: changes with every applied result that changed something. */
  get countsVersion(): number {
    return this.version;
  }

  /** Errors and warnings per tab of `tabs`. */
  counts(tabs: CaseTabs): Map<string, TabCount> {
    let counts = this.countsCache.get(tabs);
    if (!counts) {
      counts = new Map();
      for (const [pointer, findings] of this.byPointer) {
        const tab = tabOfPointer(tabs, pointer);
        const count = counts.get(tab) ?? { errors: 0, warnings: 0 };
        for (const finding of findings) {
          if (finding.severity === 'error') count.errors++;
          else count.warnings++;
        }
        counts.set(tab, count);
      }
      this.countsCache.set(tabs, counts);
    }
    return counts;
  }

  /** Applies a result: the fields whose findings changed, and those that have none any more. */
  apply(changed: [pointer: string, findings: Finding[]][], cleared: string[]): void {
    const first = !this.ready;
    this.ready = true;
    if (!changed.length && !cleared.length) {
      // The first result, even an empty one, tells the page the check runs.
      if (first) for (const listener of this.countListeners) listener();
      return;
    }
    for (const pointer of cleared) this.byPointer.delete(pointer);
    for (const [pointer, findings] of changed) this.byPointer.set(pointer, findings);
    this.version++;
    this.countsCache = new WeakMap();
    for (const pointer of [...cleared, ...changed.map(([p]) => p)])
      for (const listener of this.listeners.get(pointer) ?? []) listener();
    for (const listener of this.countListeners) listener();
  }

  /** Forgets every finding (the configuration changed). */
  clear(): void {
    this.apply([], [...this.byPointer.keys()]);
    this.ready = false;
  }
}

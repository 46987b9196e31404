/**
 * The tab a field of the case lives in (schemas/ui/case-tabs.json, or a configured layout): the
 * server's check report groups its findings by it and the case form counts them per tab, with this
 * one function.
 */
import type { CaseTabs } from './types';

const prefixesByTabs = new WeakMap<CaseTabs, [RegExp, string, string][]>();

/** Pointer patterns of the layout, longest first: [matcher, section prefix, tab id]. */
function prefixesOf(tabs: CaseTabs): [RegExp, string, string][] {
  let prefixes = prefixesByTabs.get(tabs);
  if (!prefixes) {
    prefixes = tabs.tabs
      .flatMap((tab) =>
        tab.groups.flatMap((group) =>
          [group.array, ...group.fields]
            .filter((f): f is string => !!f)
            .map((f) => [f.replace(/\*/g, '\\d+'), tab.id] as const),
        ),
      )
      .sort((a, b) => b[0].length - a[0].length)
      .map(([prefix, tab]) => [new RegExp(`^${prefix}(/|$)`), prefix, tab]);
    prefixesByTabs.set(tabs, prefixes);
  }
  return prefixes;
}

/** The longest declared prefix wins; else the first tab holding the pointer's section; else 'overview'. */
export function tabOfPointer(tabs: CaseTabs, pointer: string): string {
  const prefixes = prefixesOf(tabs);
  for (const [matcher, , tab] of prefixes) if (matcher.test(pointer)) return tab;
  const section = pointer.split('/')[1] ?? '';
  for (const [, prefix, tab] of prefixes) if (prefix.startsWith(`/${section}`)) return tab;
  return 'overview';
}

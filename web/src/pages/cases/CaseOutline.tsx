/**
 * The case page's section outline (issue 16 item 4): the open tab's sections in order, beside the
 * form where a list page has its second-level menu, each bringing its section into view; the
 * section in view is marked, and a repeated section shows how many items it holds.
 */
import { useEffect, useState } from 'react';
import { Caption1, Tab, TabList, makeStyles, tokens } from '@fluentui/react-components';
import type { SelectTabData } from '@fluentui/react-components';
import type { CaseTab, CaseTabGroup } from '@pv/engine';
import { groupAnchorId, topGroups, useCaseFormText } from '../../case-form';
import type { CaseStore } from '../../case-form';
import { lengthOf, useCaseValue } from '../../case-form/useStore';
import { useLanguage } from '../../i18n/LanguageContext';

const useStyles = makeStyles({
  outline: {
    position: 'sticky',
    top: 'calc(var(--case-header-height, 56px) + 8px)',
    maxHeight: 'calc(100vh - var(--case-header-height, 56px) - 120px)',
    overflowY: 'auto',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingVerticalS,
    backgroundColor: tokens.colorNeutralBackground1,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  heading: { color: tokens.colorNeutralForeground3, paddingLeft: tokens.spacingHorizontalS },
  // Titles wrap in the narrow column (bilingual ones are long) rather than being cut.
  tab: { whiteSpace: 'normal', textAlign: 'left', justifyContent: 'flex-start', height: 'auto' },
  count: { color: tokens.colorNeutralForeground3, marginLeft: tokens.spacingHorizontalXS },
});

function ItemCount({ store, array }: { store: CaseStore; array: string }) {
  const styles = useStyles();
  const count = useCaseValue(store, array, lengthOf);
  return <span className={styles.count}>{`(${count})`}</span>;
}

export function CaseOutline({ tab, store }: { tab: CaseTab; store: CaseStore }) {
  const styles = useStyles();
  const { pick } = useLanguage();
  const { tx } = useCaseFormText();
  const groups: CaseTabGroup[] = topGroups(tab.groups);
  const [current, setCurrent] = useState(groups[0]?.id ?? '');

  // The section in view: the topmost of those crossing the upper part of the viewport.
  useEffect(() => {
    if (typeof IntersectionObserver === 'undefined') return;
    const visible = new Set<string>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const id = (entry.target as HTMLElement).dataset.outlineGroup ?? '';
          if (entry.isIntersecting) visible.add(id);
          else visible.delete(id);
        }
        const first = groups.find((group) => visible.has(group.id));
        if (first) setCurrent(first.id);
      },
      { rootMargin: '-15% 0px -55% 0px' },
    );
    for (const group of groups) {
      const element = document.getElementById(groupAnchorId(group.id));
      if (element) observer.observe(element);
    }
    return () => observer.disconnect();
    // The tab's groups change only with the tab.
  }, [tab.id]);

  return (
    <nav className={styles.outline} aria-label={tx('sectionOutline')} data-testid="case-outline">
      <Caption1 className={styles.heading}>{tx('sectionOutline')}</Caption1>
      <TabList
        vertical
        size="small"
        selectedValue={current}
        onTabSelect={(_: unknown, data: SelectTabData) => {
          const id = String(data.value);
          setCurrent(id);
          document.getElementById(groupAnchorId(id))?.scrollIntoView({ block: 'start', behavior: 'smooth' });
        }}
      >
        {groups.map((group) => (
          <Tab
            key={group.id}
            value={group.id}
            className={styles.tab}
            data-testid={`case-outline-${group.id}`}
          >
            {pick(group.title)}
            {group.array ? <ItemCount store={store} array={group.array} /> : null}
          </Tab>
        ))}
      </TabList>
    </nav>
  );
}

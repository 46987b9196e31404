/**
 * One case tab (schemas/ui/case-tabs.json): its groups in order, plain groups as one form each,
 * repeating groups as sections with their nested sections, the drug-reaction matrix as a grid.
 * Only the selected tab is mounted.
 */
import { memo } from 'react';
import { Card, Subtitle2, makeStyles, tokens } from '@fluentui/react-components';
import type { CaseTab, CaseTabGroup } from '@pv/engine';
import { useLanguage } from '../i18n/LanguageContext';
import { AssessmentMatrix } from './AssessmentMatrix';
import { GroupForm } from './GroupForm';
import { RepeatableSection, nestedGroups } from './RepeatableSection';
import type { CaseStore } from './store';

const useStyles = makeStyles({
  tab: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  // Brought into view below the case page's sticky header (its height in --case-header-height).
  anchor: { scrollMarginTop: 'calc(var(--case-header-height, 56px) + 8px)', minWidth: 0 },
});

/** The element id of a top group of a tab: the case page's section outline scrolls to it. */
export const groupAnchorId = (groupId: string) => `case-group-${groupId}`;

/** Group renderers by tester, like widgets: the matrix is the repeating group of G.k.9.i. */
const isMatrix = (group: CaseTabGroup) => /\/drugs\/\*\/reactionAssessments$/.test(group.array ?? '');

/** Groups not nested in another repeating group of the same tab. */
export function topGroups(groups: CaseTabGroup[]): CaseTabGroup[] {
  return groups.filter(
    (g) => !g.array || !groups.some((o) => o !== g && o.array && g.array!.startsWith(`${o.array}/*/`)),
  );
}

function CaseTabViewImpl({ tab, store, readOnly }: { tab: CaseTab; store: CaseStore; readOnly: boolean }) {
  const styles = useStyles();
  const { pick } = useLanguage();
  const groupView = (group: CaseTabGroup) => {
    if (isMatrix(group))
      return (
        <AssessmentMatrix
          key={group.id}
          group={group}
          allGroups={tab.groups}
          store={store}
          readOnly={readOnly}
        />
      );
    if (group.array)
      return (
        <RepeatableSection
          key={group.id}
          group={group}
          allGroups={tab.groups}
          parentIndexes={[]}
          store={store}
          readOnly={readOnly}
        >
          {nestedGroups(group.array, tab.groups)}
        </RepeatableSection>
      );
    return (
      <Card key={group.id} data-testid={`group-${group.id}`}>
        <Subtitle2>{pick(group.title)}</Subtitle2>
        <GroupForm group={group} base="" store={store} readOnly={readOnly} />
      </Card>
    );
  };
  return (
    <div className={styles.tab} data-testid={`tab-panel-${tab.id}`}>
      {topGroups(tab.groups).map((group) => (
        <div
          key={group.id}
          id={groupAnchorId(group.id)}
          className={styles.anchor}
          data-outline-group={group.id}
        >
          {groupView(group)}
        </div>
      ))}
    </div>
  );
}

export const CaseTabView = memo(CaseTabViewImpl);

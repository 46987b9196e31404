/**
 * /reportmanagment/whodrug: the WHODrug list and the MedDRA code search, one tab each (SPEC 2), and
 * the tenant's dictionary versions (the menus give dictionary releases no page of their own).
 */
import { useState } from 'react';
import { Tab, TabList, Title2, makeStyles, tokens } from '@fluentui/react-components';
import type { SelectTabData } from '@fluentui/react-components';
import { MeddraSearch } from './MeddraSearch';
import { VersionsPanel } from './VersionsPanel';
import { WhodrugList } from './WhodrugList';
import { useDictionaryText } from './text';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

type PageTab = 'whodrug' | 'meddra' | 'versions';
const TITLES = { whodrug: 'uiWhodrugTitle', meddra: 'uiMeddraTitle', versions: 'uiVersionsTitle' } as const;

export default function DictionariesPage() {
  const styles = useStyles();
  const { dt } = useDictionaryText();
  const [tab, setTab] = useState<PageTab>('whodrug');
  return (
    <section className={styles.page}>
      <Title2 as="h1">{dt(TITLES[tab])}</Title2>
      <TabList
        selectedValue={tab}
        onTabSelect={(_: unknown, data: SelectTabData) => setTab(data.value as PageTab)}
      >
        <Tab value="whodrug" data-testid="tab-whodrug">
          {dt('uiWhodrugTitle')}
        </Tab>
        <Tab value="meddra" data-testid="tab-meddra">
          {dt('uiMeddraTitle')}
        </Tab>
        <Tab value="versions" data-testid="tab-versions">
          {dt('uiVersionsTab')}
        </Tab>
      </TabList>
      {tab === 'whodrug' ? <WhodrugList /> : tab === 'meddra' ? <MeddraSearch /> : <VersionsPanel />}
    </section>
  );
}

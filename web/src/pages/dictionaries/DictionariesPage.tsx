/** /reportmanagment/whodrug: the WHODrug list and the MedDRA code search, one tab each (SPEC 2). */
import { useState } from 'react';
import { Tab, TabList, Title2, makeStyles, tokens } from '@fluentui/react-components';
import type { SelectTabData } from '@fluentui/react-components';
import { MeddraSearch } from './MeddraSearch';
import { WhodrugList } from './WhodrugList';
import { useDictionaryText } from './text';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

export default function DictionariesPage() {
  const styles = useStyles();
  const { dt } = useDictionaryText();
  const [tab, setTab] = useState<'whodrug' | 'meddra'>('whodrug');
  return (
    <section className={styles.page}>
      <Title2 as="h1">{tab === 'whodrug' ? dt('uiWhodrugTitle') : dt('uiMeddraTitle')}</Title2>
      <TabList
        selectedValue={tab}
        onTabSelect={(_: unknown, data: SelectTabData) => setTab(data.value as 'whodrug' | 'meddra')}
      >
        <Tab value="whodrug" data-testid="tab-whodrug">
          {dt('uiWhodrugTitle')}
        </Tab>
        <Tab value="meddra" data-testid="tab-meddra">
          {dt('uiMeddraTitle')}
        </Tab>
      </TabList>
      {tab === 'whodrug' ? <WhodrugList /> : <MeddraSearch />}
    </section>
  );
}

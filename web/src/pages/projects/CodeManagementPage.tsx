/**
 * /authoritymanagement/codeManagement: report-code generators (generic list and form on
 * /report-codes/generators) and, per generator, its counters by period with the next code.
 */
import { useEffect, useState } from 'react';
import {
  Dropdown,
  Field,
  Option,
  Spinner,
  Tab,
  TabList,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData, SelectTabData } from '@fluentui/react-components';
import { api } from '../../app/api';
import { useLanguage } from '../../i18n/LanguageContext';
import { ListView } from '../../renderers/list/ListView';
import { generatorsPage } from './definitions';
import { useProjectsText } from './text';
import { DataTable } from '../../renderers/table/DataTable';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  muted: { color: tokens.colorNeutralForeground3 },
});

interface Generator {
  id: string;
  name: string;
}
interface Counters {
  next: string | null;
  items: { period: string; value: number; updatedAt?: string }[];
}

export default function CodeManagementPage() {
  const styles = useStyles();
  const { pick } = useLanguage();
  const { pt } = useProjectsText();
  const [tab, setTab] = useState<'generators' | 'counters'>('generators');
  return (
    <section className={styles.page}>
      <Title2 as="h1">{pick(generatorsPage.title)}</Title2>
      <TabList
        selectedValue={tab}
        onTabSelect={(_: unknown, d: SelectTabData) => setTab(d.value as typeof tab)}
      >
        <Tab value="generators" data-testid="code-tab-generators">
          {pt('uiGenerators')}
        </Tab>
        <Tab value="counters" data-testid="code-tab-counters">
          {pt('uiCounters')}
        </Tab>
      </TabList>
      {tab === 'generators' ? <ListView definition={generatorsPage.lists[0]!} /> : <CountersPanel />}
    </section>
  );
}

function CountersPanel() {
  const styles = useStyles();
  const { language } = useLanguage();
  const { pt } = useProjectsText();
  const [generators, setGenerators] = useState<Generator[] | null>(null);
  const [chosen, setChosen] = useState('');
  const [counters, setCounters] = useState<Counters | null>(null);
  const locale = language === 'en' ? 'en' : 'zh-CN';

  useEffect(() => {
    api.request<{ items: Generator[] }>('/report-codes/generators').then(
      (answer) => {
        setGenerators(answer.items);
        if (answer.items[0]) setChosen(answer.items[0].id);
      },
      () => setGenerators([]),
    );
  }, []);
  useEffect(() => {
    if (!chosen) return;
    setCounters(null);
    api
      .request<Counters>(`/report-codes/generators/${encodeURIComponent(chosen)}/counters`)
      .then(setCounters, () => setCounters({ next: null, items: [] }));
  }, [chosen]);

  if (generators === null) return <Spinner size="small" />;
  if (!generators.length) return <Text className={styles.muted}>{pt('uiNoGenerators')}</Text>;
  const current = generators.find((g) => g.id === chosen);
  return (
    <div className={styles.page} data-testid="code-counters">
      <Field label={pt('uiGenerator')}>
        <Dropdown
          value={current?.name ?? ''}
          selectedOptions={[chosen]}
          onOptionSelect={(_: unknown, d: OptionOnSelectData) => setChosen(d.optionValue ?? '')}
          data-testid="code-generator"
        >
          {generators.map((g) => (
            <Option key={g.id} value={g.id} text={g.name}>
              {g.name}
            </Option>
          ))}
        </Dropdown>
      </Field>
      {counters === null ? (
        <Spinner size="small" />
      ) : (
        <>
          {counters.next ? (
            <Text data-testid="code-next">{pt('uiNextCode', { code: counters.next })}</Text>
          ) : null}
          {counters.items.length ? (
            <DataTable<(typeof counters.items)[number]>
              id="reportCodeCounters"
              ariaLabel={pt('uiCounters')}
              serialOffset={false}
              columns={[
                { key: 'period', label: pt('uiPeriod'), width: 140, text: (counter) => counter.period },
                {
                  key: 'value',
                  label: pt('uiLastValue'),
                  width: 140,
                  text: (counter) => String(counter.value),
                },
                {
                  key: 'updatedAt',
                  label: pt('uiUpdatedAt'),
                  kind: 'datetime',
                  text: (counter) =>
                    counter.updatedAt ? new Date(counter.updatedAt).toLocaleString(locale) : '',
                },
              ]}
              rows={counters.items}
              rowKey={(counter) => counter.period}
              empty={pt('uiNoCounters')}
            />
          ) : (
            <Text className={styles.muted}>{pt('uiNoCounters')}</Text>
          )}
        </>
      )}
    </div>
  );
}

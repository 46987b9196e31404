/** An administration page: a configuration (schemas/ui/admin/<name>.json) of the generic list and form. */
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { Spinner, Tab, TabList, Title2, makeStyles, tokens } from '@fluentui/react-components';
import type { SelectTabData } from '@fluentui/react-components';
import type { PageDefinition } from '../../renderers/definition';
import { ListView } from '../../renderers/list/ListView';
import { useLanguage } from '../../i18n/LanguageContext';
import { ADMIN_PAGES } from './registry';

const definitions = import.meta.glob<PageDefinition>('../../../../schemas/ui/admin/*.json', {
  import: 'default',
});

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

export default function AdminPage() {
  const styles = useStyles();
  const { pick } = useLanguage();
  const { pathname } = useLocation();
  const [definition, setDefinition] = useState<PageDefinition | null>(null);
  const [tab, setTab] = useState(0);

  useEffect(() => {
    const load = definitions[`../../../../schemas/ui/admin/${ADMIN_PAGES[pathname]}.json`];
    setDefinition(null);
    setTab(0);
    void load?.().then(setDefinition);
  }, [pathname]);

  if (!definition) return <Spinner />;
  const list = definition.lists[tab] ?? definition.lists[0]!;
  return (
    <section className={styles.page}>
      <Title2 as="h1">{pick(definition.title)}</Title2>
      {definition.lists.length > 1 ? (
        <TabList selectedValue={tab} onTabSelect={(_: unknown, d: SelectTabData) => setTab(Number(d.value))}>
          {definition.lists.map((l, i) => (
            <Tab key={l.id} value={i} data-testid={`page-tab-${l.id}`}>
              {pick(l.title)}
            </Tab>
          ))}
        </TabList>
      ) : null}
      <ListView key={list.id} definition={list} />
    </section>
  );
}

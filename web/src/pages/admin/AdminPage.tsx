/**
 * An administration page: a configuration (schemas/ui/admin/<name>.json) of the generic record
 * view, list and form. Records and lists show as tabs, each only when the user holds its permission.
 */
import { Suspense, lazy, useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { Spinner, Tab, TabList, Title2, makeStyles, tokens } from '@fluentui/react-components';
import type { SelectTabData } from '@fluentui/react-components';
import type { ListDefinition, PageDefinition, RecordDefinition } from '../../renderers/definition';
import { ListView } from '../../renderers/list/ListView';
import { RecordView } from '../../renderers/record/RecordView';
import { resolvePage } from '../../renderers/form/entity-form';
import { useSession } from '../../app/SessionContext';
import { useLanguage } from '../../i18n/LanguageContext';
import { ADMIN_PAGES, ADMIN_PAGE_PANELS } from './registry';

const definitions = import.meta.glob<PageDefinition>('../../../../schemas/ui/admin/*.json', {
  import: 'default',
});

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

const panels = Object.fromEntries(
  Object.entries(ADMIN_PAGE_PANELS).map(([path, load]) => [path, lazy(load)]),
);

type Section =
  { kind: 'record'; definition: RecordDefinition } | { kind: 'list'; definition: ListDefinition };

export default function AdminPage() {
  const styles = useStyles();
  const { pick } = useLanguage();
  const { info } = useSession();
  const { pathname } = useLocation();
  const [definition, setDefinition] = useState<PageDefinition | null>(null);
  const [tab, setTab] = useState(0);

  useEffect(() => {
    const load = definitions[`../../../../schemas/ui/admin/${ADMIN_PAGES[pathname]}.json`];
    setDefinition(null);
    setTab(0);
    void load?.().then((page) => setDefinition(resolvePage(page)));
  }, [pathname]);

  const sections = useMemo((): Section[] => {
    if (!definition) return [];
    const held = new Set(info?.permissions ?? []);
    const allowed = (permission?: string) => !permission || held.has(permission);
    return [
      ...definition.lists
        .filter((l) => allowed(l.permission))
        .map((l) => ({ kind: 'list' as const, definition: l })),
      ...(definition.records ?? [])
        .filter((r) => allowed(r.permission))
        .map((r) => ({ kind: 'record' as const, definition: r })),
    ];
  }, [definition, info]);

  const Panel = panels[pathname];
  if (!definition) return <Spinner />;
  const section = sections[tab] ?? sections[0];
  return (
    <section className={styles.page}>
      <Title2 as="h1">{pick(definition.title)}</Title2>
      {sections.length > 1 ? (
        <TabList selectedValue={tab} onTabSelect={(_: unknown, d: SelectTabData) => setTab(Number(d.value))}>
          {sections.map((s, i) => (
            <Tab key={s.definition.id} value={i} data-testid={`page-tab-${s.definition.id}`}>
              {pick(s.definition.title)}
            </Tab>
          ))}
        </TabList>
      ) : null}
      {section?.kind === 'record' ? (
        <RecordView key={section.definition.id} definition={section.definition} />
      ) : section ? (
        <ListView key={section.definition.id} definition={section.definition} />
      ) : null}
      {Panel ? (
        <Suspense fallback={<Spinner />}>
          <Panel />
        </Suspense>
      ) : null}
    </section>
  );
}

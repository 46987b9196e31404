/**
 * Line-listing import (/reportmanagment/lineListing) and Excel import (/reportmanagment/excel): the
 * import records of the kind with their upload through an import template; on the line-listing
 * page also the templates, a configuration of the generic list and form
 * (schemas/ui/admin/import-templates.json over schemas/entities/import-template.json), and the
 * export's line-listing templates (SPEC 2 "import and export template configuration"; issue 20:
 * schemas/ui/admin/line-listing-templates.json over schemas/entities/line-listing-template.json, the
 * downloads module's). A record's reports open in the E2B import's comparison screen.
 */
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { Spinner, Tab, TabList } from '@fluentui/react-components';
import type { SelectTabData } from '@fluentui/react-components';
import type { ListDefinition, PageDefinition } from '../../renderers/definition';
import { ListView } from '../../renderers/list/ListView';
import { resolvePage } from '../../renderers/form/entity-form';
import { useSession } from '../../app/SessionContext';
import templatesPage from '../../../../schemas/ui/admin/import-templates.json';
import listingTemplatesPage from '../../../../schemas/ui/admin/line-listing-templates.json';
import { ComparisonView } from './ComparisonView';
import { ImportList } from './ImportList';
import { useImportText } from './text';

export default function SheetImportPage() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const { it, pick } = useImportText();
  const { info } = useSession();
  const kind = pathname.endsWith('/excel') ? 'excel' : pathname.endsWith('/cimos') ? 'cioms' : 'lineListing';
  const [tab, setTab] = useState('imports');
  const [templates, setTemplates] = useState<ListDefinition | null>(null);
  const [listingTemplates, setListingTemplates] = useState<ListDefinition | null>(null);
  const held = useMemo(() => new Set(info?.permissions ?? []), [info]);

  useEffect(() => {
    if (kind !== 'lineListing') return;
    setTemplates(resolvePage(templatesPage as unknown as PageDefinition).lists[0] ?? null);
    setListingTemplates(resolvePage(listingTemplatesPage as unknown as PageDefinition).lists[0] ?? null);
  }, [kind]);

  const recordId = params.get('recordId');
  if (recordId)
    return <ComparisonView kind={kind} recordId={recordId} index={Number(params.get('index') ?? 0) || 0} />;
  const showTemplates = kind === 'lineListing' && (!templates?.permission || held.has(templates.permission));
  const showListingTemplates =
    kind === 'lineListing' &&
    !!listingTemplates &&
    (!listingTemplates.permission || held.has(listingTemplates.permission));
  return (
    <div data-testid={`sheet-import-${kind}`}>
      {showTemplates ? (
        <TabList selectedValue={tab} onTabSelect={(_: unknown, d: SelectTabData) => setTab(String(d.value))}>
          <Tab value="imports" data-testid="sheet-import-tab-imports">
            {it('uiImportsTab')}
          </Tab>
          <Tab value="templates" data-testid="sheet-import-tab-templates">
            {it('uiTemplatesTab')}
          </Tab>
          {showListingTemplates ? (
            <Tab value="listingTemplates" data-testid="sheet-import-tab-listing-templates">
              {pick(listingTemplates.title)}
            </Tab>
          ) : null}
        </TabList>
      ) : null}
      {tab === 'listingTemplates' && showListingTemplates ? (
        <ListView key="listingTemplates" definition={listingTemplates} />
      ) : tab === 'templates' && showTemplates ? (
        templates ? (
          <ListView key="templates" definition={templates} />
        ) : (
          <Spinner />
        )
      ) : (
        <ImportList key={kind} kind={kind} />
      )}
    </div>
  );
}

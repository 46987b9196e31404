/**
 * The case list's "export line listing (XLSX)" action: starts a download task over the list's
 * current query (tab, filters, sort) with the columns shown, then points to the download tasks.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Link, Select } from '@fluentui/react-components';
import { notify } from '../../app/notify';
import { useSession } from '../../app/SessionContext';
import { DOWNLOAD_PERMISSIONS, DOWNLOADS_ROUTE, downloadsApi } from './downloads-api';
import type { CaseListSelection, LineListingTemplate } from './downloads-api';
import { useDownloadsText } from './downloads-text';

export function LineListingExport(props: { query: CaseListSelection; columns: string[] }) {
  const navigate = useNavigate();
  const { dt } = useDownloadsText();
  const { info } = useSession();
  const [started, setStarted] = useState(false);
  const [templates, setTemplates] = useState<LineListingTemplate[]>([]);
  // '' = the list's own columns.
  const [templateId, setTemplateId] = useState('');
  const mayUseTemplates = info?.permissions.includes(DOWNLOAD_PERMISSIONS.templates) === true;
  useEffect(() => {
    if (!mayUseTemplates) return;
    void downloadsApi.lineListingTemplates().then(
      (answer) => setTemplates(answer.items),
      () => undefined,
    );
  }, [mayUseTemplates]);
  if (!info?.permissions.includes(DOWNLOAD_PERMISSIONS.start)) return null;
  const start = async () => {
    try {
      await downloadsApi.caseLineListing(props.query, props.columns, templateId || undefined);
      notify.toast('success', dt('uiExportStarted'));
      setStarted(true);
    } catch {
      // The request layer showed the server's message.
    }
  };
  return (
    <>
      {templates.length > 0 && (
        <Select
          aria-label={dt('uiLineListingTemplate')}
          data-testid="case-line-listing-template"
          value={templateId}
          onChange={(_, data) => setTemplateId(data.value)}
        >
          <option value="">{dt('uiListColumns')}</option>
          {templates.map((template) => (
            <option key={template.id} value={template.id}>
              {template.name}
            </option>
          ))}
        </Select>
      )}
      <Button data-testid="case-export-line-listing" onClick={() => void start()}>
        {dt('uiExportLineListing')}
      </Button>
      {started ? (
        <Link data-testid="case-line-listing-tasks" onClick={() => void navigate(DOWNLOADS_ROUTE)}>
          {dt('uiGoToTasks')}
        </Link>
      ) : null}
    </>
  );
}

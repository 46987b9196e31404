/**
 * The export menu of every chart and table of pooled analysis: PNG of the chart as drawn (made
 * here from its canvas), and Excel, Word and PDF built by the server as download tasks
 * (server/src/analytics/export.ts) with the chart image sent along, in the display language or
 * Chinese and English side by side.
 */
import { useState } from 'react';
import type { RefObject } from 'react';
import {
  Button,
  Menu,
  MenuDivider,
  MenuGroup,
  MenuGroupHeader,
  MenuItem,
  MenuItemRadio,
  MenuList,
  MenuPopover,
  MenuTrigger,
} from '@fluentui/react-components';
import type { MenuCheckedValueChangeData } from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import { api } from '../../app/api';
import { notify } from '../../app/notify';
import { useSession } from '../../app/SessionContext';
import { useLanguage } from '../../i18n/LanguageContext';
import { exportPng, pngBase64 } from './exporting';

/** What the server exports: its route (POST /analytics/<source>/export), the request and the permission. */
export interface ExportTarget {
  path: string;
  body: object;
  permission: string;
}

type Format = 'xlsx' | 'docx' | 'pdf';
const FORMATS: { format: Format; key: string; testId: string }[] = [
  { format: 'xlsx', key: 'analytics.exportExcel', testId: 'excel' },
  { format: 'docx', key: 'analytics.exportWord', testId: 'word' },
  { format: 'pdf', key: 'analytics.exportPdf', testId: 'pdf' },
];

export function ExportMenu({
  testId,
  title,
  target,
  canvas,
}: {
  testId: string;
  /** The chart's title: the PNG's file name. */
  title: string;
  target: ExportTarget;
  /** The chart drawn, when there is one: PNG offered and the image put in the files. */
  canvas?: RefObject<HTMLCanvasElement | null>;
}) {
  const { t, language: display } = useLanguage();
  const { info } = useSession();
  // The bilingual display exports bilingual files unless the menu says otherwise.
  const [language, setLanguage] = useState<'display' | 'bilingual'>(
    display === 'both' ? 'bilingual' : 'display',
  );
  const mayExport = info?.permissions.includes(target.permission) === true;
  const failed = () => notify.toast('error', t('analytics.exportFailed'));

  const start = (format: Format) => {
    const image = canvas?.current ? pngBase64(canvas.current) : undefined;
    // The request layer shows the server's refusal; the file is fetched from the download tasks.
    void api
      .request(target.path, { body: { ...target.body, format, language, ...(image ? { image } : {}) } })
      .then(() => notify.toast('success', t('analytics.exportStarted')))
      .catch(() => undefined);
  };

  if (!canvas && !mayExport) return null;
  return (
    <Menu
      checkedValues={{ language: [language] }}
      onCheckedValueChange={(_: unknown, d: MenuCheckedValueChangeData) =>
        setLanguage(d.checkedItems[0] === 'bilingual' ? 'bilingual' : 'display')
      }
    >
      <MenuTrigger disableButtonEnhancement>
        <Button size="small" icon={<ArrowDownloadRegular />} data-testid={`${testId}-export`}>
          {t('analytics.export')}
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {canvas && (
            <MenuItem
              data-testid={`${testId}-png`}
              onClick={() => canvas.current && exportPng(canvas.current, title).catch(failed)}
            >
              {t('analytics.exportPng')}
            </MenuItem>
          )}
          {mayExport && (
            <>
              {FORMATS.map(({ format, key, testId: id }) => (
                <MenuItem key={format} data-testid={`${testId}-${id}`} onClick={() => start(format)}>
                  {t(key)}
                </MenuItem>
              ))}
              <MenuDivider />
              <MenuGroup>
                <MenuGroupHeader>{t('analytics.exportLanguage')}</MenuGroupHeader>
                <MenuItemRadio name="language" value="display" data-testid={`${testId}-language-display`}>
                  {t('analytics.exportDisplayLanguage')}
                </MenuItemRadio>
                <MenuItemRadio name="language" value="bilingual" data-testid={`${testId}-language-bilingual`}>
                  {t('analytics.exportBilingual')}
                </MenuItemRadio>
              </MenuGroup>
            </>
          )}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

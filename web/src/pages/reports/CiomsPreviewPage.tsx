/**
 * /reportmanagment/exportCimos: pick cases, preview each CIOMS I form as it prints (the server's HTML,
 * shown in a sandboxed frame), export a form as PDF or Word, or many as one zip through a download
 * task (ZipExport). `?caseId=` preselects a case.
 */
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button, Text, Title3 } from '@fluentui/react-components';
import type { ReportLanguage } from '@pv/engine';
import { useSession } from '../../app/SessionContext';
import { saveFile } from '../../api/request';
import { useLanguage } from '../../i18n/LanguageContext';
import { REPORT_PERMISSIONS, reportsApi } from './api';
import type { Blinding } from './api';
import { CaseFinder, LanguageAndBlinding, useReportStyles } from './ReportControls';
import { useReportText } from './text';
import { ZipExport } from './ZipExport';

function Preview(props: { caseId: string; lang: ReportLanguage; blinding: Blinding; canExport: boolean }) {
  const { rt } = useReportText();
  const styles = useReportStyles();
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let href: string | null = null;
    setUrl(null);
    reportsApi.ciomsPreview(props.caseId, props.lang, props.blinding).then(
      (file) => {
        href = URL.createObjectURL(file.blob);
        setUrl(href);
      },
      () => undefined,
    );
    return () => {
      if (href) URL.revokeObjectURL(href);
    };
  }, [props.caseId, props.lang, props.blinding]);
  const exportAs = (format: 'pdf' | 'docx') =>
    void reportsApi
      .ciomsFile(props.caseId, props.lang, props.blinding, format)
      .then(saveFile, () => undefined);
  return (
    <section data-testid="cioms-preview">
      {props.canExport && (
        <div className={styles.bar}>
          <Button onClick={() => exportAs('pdf')}>{rt('uiExportPdf')}</Button>
          <Button onClick={() => exportAs('docx')}>{rt('uiExportWord')}</Button>
        </div>
      )}
      {url ? (
        <iframe className={styles.frame} src={url} sandbox="" title={rt('uiCiomsPreviewTitle')} />
      ) : (
        <Text>{rt('uiLoading')}</Text>
      )}
    </section>
  );
}

export default function CiomsPreviewPage() {
  const { rt } = useReportText();
  const styles = useReportStyles();
  const { language } = useLanguage();
  const { info } = useSession();
  const permissions = useMemo(() => new Set(info?.permissions ?? []), [info]);
  const [params] = useSearchParams();
  const first = params.get('caseId');
  const [selected, setSelected] = useState<string[]>(first ? [first] : []);
  const [shown, setShown] = useState<string[]>(first ? [first] : []);
  const [lang, setLang] = useState<ReportLanguage>(language);
  const [blinding, setBlinding] = useState<Blinding>('blinded');
  const [reportCode, setReportCode] = useState('');
  return (
    <div>
      <Title3 as="h1">{rt('uiCiomsPreviewTitle')}</Title3>
      <CaseFinder multiple selected={selected} onSelect={setSelected} onSearched={setReportCode} />
      <div className={styles.bar}>
        <LanguageAndBlinding lang={lang} onLang={setLang} blinding={blinding} onBlinding={setBlinding} />
        <Button appearance="primary" disabled={selected.length === 0} onClick={() => setShown(selected)}>
          {rt('uiPreview')}
        </Button>
      </div>
      {permissions.has(REPORT_PERMISSIONS.ciomsExport) && (
        <ZipExport selected={selected} reportCode={reportCode} lang={lang} blinding={blinding} />
      )}
      {shown.length === 0 && <Text>{rt('uiPickCase')}</Text>}
      {shown.map((caseId) => (
        <Preview
          key={caseId}
          caseId={caseId}
          lang={lang}
          blinding={blinding}
          canExport={permissions.has(REPORT_PERMISSIONS.ciomsExport)}
        />
      ))}
    </div>
  );
}

/**
 * /reportmanagment/viewReport: the case report on screen, read-only (every tab's filled fields with
 * label, E2B id and value) in zh, en or both, blinded or not, with its PDF and Word export. `?caseId=`
 * opens a case directly (the case list's and case header's "view report").
 */
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button, Text, Title3 } from '@fluentui/react-components';
import type { CaseReport, ReportLanguage } from '@pv/engine';
import { useSession } from '../../app/SessionContext';
import { saveFile } from '../../api/request';
import { useLanguage } from '../../i18n/LanguageContext';
import { REPORT_PERMISSIONS, reportsApi } from './api';
import type { Blinding } from './api';
import { CaseFinder, LanguageAndBlinding, useReportStyles } from './ReportControls';
import { useReportText } from './text';

export default function ViewReportPage() {
  const { rt } = useReportText();
  const styles = useReportStyles();
  const { language } = useLanguage();
  const { info } = useSession();
  const permissions = useMemo(() => new Set(info?.permissions ?? []), [info]);
  const [params, setParams] = useSearchParams();
  const caseId = params.get('caseId');
  const [lang, setLang] = useState<ReportLanguage>(language);
  const [blinding, setBlinding] = useState<Blinding>('blinded');
  const [report, setReport] = useState<CaseReport | null>(null);

  useEffect(() => {
    setReport(null);
    if (!caseId) return;
    reportsApi.caseReport(caseId, lang, blinding).then(setReport, () => setReport(null));
  }, [caseId, lang, blinding]);

  const exportAs = (format: 'pdf' | 'docx') => {
    if (caseId)
      void reportsApi.caseReportFile(caseId, lang, blinding, format).then(saveFile, () => undefined);
  };

  return (
    <div>
      <Title3 as="h1">{rt('uiViewReportTitle')}</Title3>
      <CaseFinder
        multiple={false}
        selected={caseId ? [caseId] : []}
        onSelect={([id]) => id && setParams({ caseId: id })}
      />
      <div className={styles.bar}>
        <LanguageAndBlinding lang={lang} onLang={setLang} blinding={blinding} onBlinding={setBlinding} />
        {permissions.has(REPORT_PERMISSIONS.viewExport) && (
          <>
            <Button disabled={!caseId} onClick={() => exportAs('pdf')}>
              {rt('uiExportPdf')}
            </Button>
            <Button disabled={!caseId} onClick={() => exportAs('docx')}>
              {rt('uiExportWord')}
            </Button>
          </>
        )}
      </div>
      {!caseId && <Text>{rt('uiPickCase')}</Text>}
      {caseId && !report && <Text>{rt('uiLoading')}</Text>}
      {report && (
        <article data-testid="case-report">
          <Text weight="semibold">
            {report.title} · {report.reportCode} · {report.banner}
          </Text>
          {report.tabs.map((tab) => (
            <section key={tab.id}>
              <h2>{tab.label}</h2>
              {tab.groups.map((group) => (
                <div key={group.id}>
                  <h3>{group.title}</h3>
                  {group.items.map((item, i) => (
                    <div key={item.heading ?? i}>
                      {item.heading && <h4>{item.heading}</h4>}
                      <table className={styles.table}>
                        <tbody>
                          {item.rows.map((row) => (
                            <tr key={`${row.e2b}-${row.label}`}>
                              <th className={styles.cell} scope="row">
                                {row.label}
                              </th>
                              <td className={styles.cell}>{row.e2b}</td>
                              <td className={styles.cell}>{row.value}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  ))}
                </div>
              ))}
            </section>
          ))}
        </article>
      )}
    </div>
  );
}

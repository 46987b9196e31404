/**
 * Case registration (/casemanagement/casebookin): the selections a new report needs (project,
 * C.1.3 report type, event country, study site); the server assigns the report code (C.1.1) and
 * answers duplicate candidates, shown with a link each before the user goes on to the case.
 * The selections follow the project's configuration (options, labels) of the header's environment:
 * its UAT drafts when a configurator tries UAT, the published PRO configuration otherwise.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Field, Link, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { getCaseProperty } from '@pv/engine';
import type { CaseJsonSchema } from '@pv/engine';
import { session } from '../../app/session';
import { CodelistWidget } from '../../case-form/widgets/CodelistWidget';
import { ProjectPicker, SitePicker } from '../../case-form/widgets/ProjectPickers';
import { useCaseFormText } from '../../case-form';
import type { LocalisedText } from '../../i18n';
import { useLanguage } from '../../i18n/LanguageContext';
import { useConfiguredCaseTabs } from '../configurator/configured-tabs';
import { caseApi } from './case-api';
import type { DuplicateCandidate, DuplicateField } from './case-api';
import { EnvironmentBanner, useCaseEnvironment } from './EnvironmentBanner';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '640px' },
});

const REPORT_TYPE = '/report/reportType';
const COUNTRY = '/report/happenCountry';

export default function CaseRegistrationPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const { tx } = useCaseFormText();
  const [projectId, setProjectId] = useState(session.projectId() ?? '');
  const [reportType, setReportType] = useState<string>('');
  const [country, setCountry] = useState<string>('');
  const [hospitalId, setHospitalId] = useState('');
  const [problem, setProblem] = useState('');
  const [duplicates, setDuplicates] = useState<DuplicateCandidate[] | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const { pick } = useLanguage();
  const caseEnvironment = useCaseEnvironment();
  const tabs = useConfiguredCaseTabs(projectId.trim() || null, caseEnvironment.environment);

  const fieldNames = (fields: DuplicateField[]) =>
    fields.map((field) => tx(`duplicateField_${field}`)).join(', ');

  const create = async () => {
    if (!projectId.trim()) return setProblem(tx('chooseProject'));
    if (!reportType) return setProblem(tx('chooseReportType'));
    if (!country) return setProblem(tx('chooseCountry'));
    setProblem('');
    try {
      const answer = await caseApi.create({
        projectId: projectId.trim(),
        reportType,
        happenCountry: country,
        ...(hospitalId.trim() ? { hospitalId: hospitalId.trim() } : {}),
      });
      if (answer.duplicates.length) {
        setCreated(answer.case.id);
        setDuplicates(answer.duplicates);
      } else navigate(`/activecase?caseId=${encodeURIComponent(answer.case.id)}`);
    } catch {
      // The request layer showed the server's message.
    }
  };

  /** A selection's schema as the project's configuration resolves it (the base schema until it arrives). */
  const schemaOf = (pointer: string): CaseJsonSchema =>
    tabs.tabs.flatMap((tab) => tab.groups).find((group) => group.properties?.[pointer])?.properties?.[
      pointer
    ] ??
    getCaseProperty(pointer) ??
    {};
  const field = (pointer: string) => ({ pointer, schema: schemaOf(pointer) });
  /** The configured label when the configuration relabelled the field, else the page's own. */
  const labelOf = (pointer: string, own: string) => {
    const configured = schemaOf(pointer)['x-label'] as LocalisedText | undefined;
    const base = getCaseProperty(pointer)?.['x-label'];
    return configured && JSON.stringify(configured) !== JSON.stringify(base) ? pick(configured) : own;
  };
  return (
    <section className={styles.page} data-testid="case-registration">
      <Title2 as="h1">{tx('registrationTitle')}</Title2>
      <EnvironmentBanner {...caseEnvironment} />
      <Field label={tx('project')} required>
        <ProjectPicker
          testId="reg-project"
          value={projectId}
          onChange={(next) => {
            setProjectId(next);
            setHospitalId('');
          }}
          label={tx('project')}
        />
      </Field>
      <Field label={`${labelOf(REPORT_TYPE, tx('reportType'))} (C.1.3)`} required>
        <CodelistWidget
          id="reg-report-type"
          value={reportType}
          onChange={(v) => setReportType(String(v ?? ''))}
          disabled={false}
          field={field(REPORT_TYPE)}
          label={tx('reportType')}
          invalid={false}
        />
      </Field>
      <Field label={labelOf(COUNTRY, tx('eventCountry'))} required>
        <CodelistWidget
          id="reg-country"
          value={country}
          onChange={(v) => setCountry(String(v ?? ''))}
          disabled={false}
          field={field(COUNTRY)}
          label={tx('eventCountry')}
          invalid={false}
        />
      </Field>
      <Field label={tx('site')}>
        <SitePicker
          testId="reg-site"
          projectId={projectId}
          value={hospitalId}
          onChange={setHospitalId}
          label={tx('site')}
        />
      </Field>
      {problem ? <div role="alert">{problem}</div> : null}
      <Button appearance="primary" data-testid="reg-create" onClick={() => void create()}>
        {tx('newReport')}
      </Button>
      {duplicates && created ? (
        <div role="status" data-testid="reg-duplicates">
          <p>{tx('duplicatesFound', { count: duplicates.length })}</p>
          <ul>
            {duplicates.map((d) => (
              <li key={d.caseId}>
                <Link href={`/activecase?caseId=${encodeURIComponent(d.caseId)}`} target="_blank">
                  {d.reportCode ?? d.caseId}
                </Link>{' '}
                <span data-testid="reg-duplicate-detail">
                  {d.identifierMatch ? `${tx('duplicateSameIdentifier')} · ` : ''}
                  {tx('duplicateScore', { score: d.score })}
                  {d.matched.length ? ` · ${tx('duplicateAgree', { fields: fieldNames(d.matched) })}` : ''}
                  {d.differ.length ? ` · ${tx('duplicateDiffer', { fields: fieldNames(d.differ) })}` : ''}
                </span>
              </li>
            ))}
          </ul>
          <Button onClick={() => navigate(`/activecase?caseId=${encodeURIComponent(created)}`)}>
            {tx('continueToCase')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

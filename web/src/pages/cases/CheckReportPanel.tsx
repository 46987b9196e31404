/** The full validation report, grouped by tab; each finding jumps to its field. */
import { Badge, Button, Caption1, Link, Subtitle2, makeStyles, tokens } from '@fluentui/react-components';
import { caseTabs } from '@pv/engine';
import { useLanguage } from '../../i18n/LanguageContext';
import { useCaseFormText } from '../../case-form';
import type { CheckReport } from './case-api';
import { useCasesText } from './cases-text';

const useStyles = makeStyles({
  panel: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingVerticalM,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    maxHeight: '40vh',
    overflowY: 'auto',
  },
  head: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  spacer: { flexGrow: 1 },
  finding: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'baseline' },
});

export function CheckReportPanel({
  report,
  onJump,
  onClose,
}: {
  report: CheckReport;
  onJump: (tab: string, pointer: string) => void;
  onClose: () => void;
}) {
  const styles = useStyles();
  const { pick } = useLanguage();
  const { tx } = useCaseFormText();
  const { ct } = useCasesText();
  const tabLabel = (id: string) => {
    const tab = caseTabs.tabs.find((t) => t.id === id);
    return tab ? pick(tab.label) : id;
  };
  return (
    <section className={styles.panel} data-testid="check-report" aria-label={tx('checkTitle')}>
      <div className={styles.head}>
        <Subtitle2>{tx('checkTitle')}</Subtitle2>
        {report.environment === 'UAT' ? (
          <Badge color="important" data-testid="check-uat">
            {ct('uiUatCheckTitle')}
          </Badge>
        ) : null}
        <Badge color="danger">{tx('errorCount', { count: report.errorCount })}</Badge>
        <Badge color="warning">{tx('warningCount', { count: report.warningCount })}</Badge>
        <span className={styles.spacer} />
        <Button size="small" onClick={onClose}>
          {tx('close')}
        </Button>
      </div>
      {report.groups.length === 0 ? <Caption1 data-testid="check-clean">{tx('checkClean')}</Caption1> : null}
      {report.groups.map((group) => (
        <div key={group.tab} data-testid={`check-tab-${group.tab}`}>
          <Subtitle2>{tabLabel(group.tab)}</Subtitle2>
          {group.findings.map((finding, i) => (
            <div key={`${finding.path}-${finding.ruleId}-${i}`} className={styles.finding}>
              <Badge size="small" color={finding.severity === 'error' ? 'danger' : 'warning'}>
                {finding.e2b ?? finding.ruleId}
              </Badge>
              <Link
                data-testid="check-finding"
                data-pointer={finding.path}
                onClick={() => onJump(group.tab, finding.path)}
              >
                {pick(finding.message)}
              </Link>
            </div>
          ))}
        </div>
      ))}
    </section>
  );
}

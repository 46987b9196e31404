/**
 * Medical review tasks (/casemanagement/medicalReviewTasks): the cases waiting at a medical review
 * node in the user's projects (all, or only those the user handles), most urgent first, each with
 * its coding status against the project's MedDRA version; a row opens the case.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  Badge,
  Button,
  Checkbox,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Title3,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { caseWorkflow } from '@pv/engine';
import { api } from '../../app/api';
import { useLanguage } from '../../i18n/LanguageContext';
import { useDictionaryText } from '../dictionaries/text';

interface ReviewTask {
  id: string;
  reportCode: string | null;
  projectId: string | null;
  projectName: { zh: string; en: string } | null;
  patientsName: string | null;
  node: string;
  handlerName: string | null;
  updatedAt: string | null;
  dueDate: string | null;
  coding: { total: number; coded: number; uncoded: number; issues: number; configuredVersion: string | null };
}

const PAGE_SIZE = 20;

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  bar: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'center' },
  coding: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap', alignItems: 'center' },
});

export default function MedicalReviewTasksPage() {
  const styles = useStyles();
  const { dt } = useDictionaryText();
  const { pick } = useLanguage();
  const navigate = useNavigate();
  const [mine, setMine] = useState(false);
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<{ total: number; items: ReviewTask[] } | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    api
      .request<{ total: number; items: ReviewTask[] }>('/dictionaries/coding/medical-review-tasks', {
        method: 'GET',
        params: { mine, page, size: PAGE_SIZE },
      })
      .then(
        (loaded) => {
          if (!live) return;
          setFailed(false);
          setAnswer(loaded);
        },
        () => live && setFailed(true),
      );
    return () => {
      live = false;
    };
  }, [mine, page]);

  const nodeLabel = (id: string) => {
    const label = (caseWorkflow.nodes[id] as { label?: { zh: string; en: string } } | undefined)?.label;
    return label ? pick(label) : id;
  };
  const pages = answer ? Math.max(1, Math.ceil(answer.total / PAGE_SIZE)) : 1;

  return (
    <div className={styles.page} data-testid="medical-review-tasks">
      <Title3>{dt('uiReviewTitle')}</Title3>
      <div className={styles.bar}>
        <Checkbox
          data-testid="review-mine"
          checked={mine}
          label={dt('uiReviewMineOnly')}
          onChange={(_, data) => {
            setMine(data.checked === true);
            setPage(1);
          }}
        />
        {answer ? (
          <Text data-testid="review-total">{dt('uiReviewTotal', { total: answer.total })}</Text>
        ) : null}
      </div>
      {failed ? null : !answer ? (
        <Spinner />
      ) : answer.items.length === 0 ? (
        <Text data-testid="review-empty">{dt('uiReviewEmpty')}</Text>
      ) : (
        <Table size="small" aria-label={dt('uiReviewTitle')}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{dt('uiReviewReportCode')}</TableHeaderCell>
              <TableHeaderCell>{dt('uiReviewProject')}</TableHeaderCell>
              <TableHeaderCell>{dt('uiReviewNode')}</TableHeaderCell>
              <TableHeaderCell>{dt('uiReviewHandler')}</TableHeaderCell>
              <TableHeaderCell>{dt('uiReviewUpdated')}</TableHeaderCell>
              <TableHeaderCell>{dt('uiReviewDeadline')}</TableHeaderCell>
              <TableHeaderCell>{dt('uiReviewCoding')}</TableHeaderCell>
              <TableHeaderCell />
            </TableRow>
          </TableHeader>
          <TableBody>
            {answer.items.map((task) => (
              <TableRow key={task.id} data-testid={`review-row-${task.reportCode ?? task.id}`}>
                <TableCell>{task.reportCode ?? task.id}</TableCell>
                <TableCell>{task.projectName ? pick(task.projectName) : (task.projectId ?? '')}</TableCell>
                <TableCell>{nodeLabel(task.node)}</TableCell>
                <TableCell>{task.handlerName ?? ''}</TableCell>
                <TableCell>{task.updatedAt ? task.updatedAt.slice(0, 16).replace('T', ' ') : ''}</TableCell>
                <TableCell>{task.dueDate ?? ''}</TableCell>
                <TableCell>
                  <span className={styles.coding}>
                    <Badge
                      appearance="outline"
                      color={task.coding.uncoded === 0 ? 'success' : 'warning'}
                      data-testid="review-coding"
                    >
                      {dt('uiReviewCodingState', { coded: task.coding.coded, total: task.coding.total })}
                    </Badge>
                    {task.coding.issues > 0 ? (
                      <Badge appearance="outline" color="danger">
                        {dt('uiReviewCodingIssues', { count: task.coding.issues })}
                      </Badge>
                    ) : null}
                    {task.coding.configuredVersion === null ? (
                      <Badge appearance="outline" color="danger">
                        {dt('uiMeddraVersionNotConfigured')}
                      </Badge>
                    ) : null}
                  </span>
                </TableCell>
                <TableCell>
                  <Button
                    size="small"
                    onClick={() => navigate(`/activecase?caseId=${encodeURIComponent(task.id)}`)}
                  >
                    {dt('uiReviewOpen')}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {answer && pages > 1 ? (
        <div className={styles.bar}>
          <Button disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            {dt('uiPrevious')}
          </Button>
          <Text>{`${page} / ${pages}`}</Text>
          <Button disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            {dt('uiNext')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

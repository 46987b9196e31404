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
  Text,
  Title3,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { caseWorkflow } from '@pv/engine';
import { api } from '../../app/api';
import { useLanguage } from '../../i18n/LanguageContext';
import { useDictionaryText } from '../dictionaries/text';
import { DataTable } from '../../renderers/table/DataTable';

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
  coding: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'nowrap', alignItems: 'center' },
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
        <DataTable<ReviewTask>
          id="medicalReviewTasks"
          ariaLabel={dt('uiReviewTitle')}
          serialOffset={(page - 1) * PAGE_SIZE}
          columns={[
            {
              key: 'reportCode',
              label: dt('uiReviewReportCode'),
              width: 220,
              text: (task) => task.reportCode ?? task.id,
            },
            {
              key: 'project',
              label: dt('uiReviewProject'),
              width: 200,
              text: (task) => (task.projectName ? pick(task.projectName) : (task.projectId ?? '')),
            },
            { key: 'node', label: dt('uiReviewNode'), text: (task) => nodeLabel(task.node) },
            {
              key: 'handler',
              label: dt('uiReviewHandler'),
              width: 120,
              text: (task) => task.handlerName ?? '',
            },
            {
              key: 'updated',
              label: dt('uiReviewUpdated'),
              kind: 'datetime',
              text: (task) => (task.updatedAt ? task.updatedAt.slice(0, 16).replace('T', ' ') : ''),
            },
            {
              key: 'deadline',
              label: dt('uiReviewDeadline'),
              kind: 'date',
              text: (task) => task.dueDate ?? '',
            },
            {
              key: 'coding',
              label: dt('uiReviewCoding'),
              width: 240,
              text: (task) =>
                [
                  dt('uiReviewCodingState', { coded: task.coding.coded, total: task.coding.total }),
                  task.coding.issues > 0 ? dt('uiReviewCodingIssues', { count: task.coding.issues }) : '',
                  task.coding.configuredVersion === null ? dt('uiMeddraVersionNotConfigured') : '',
                ]
                  .filter(Boolean)
                  .join(' · '),
              render: (task) => (
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
              ),
            },
          ]}
          rows={answer.items}
          rowKey={(task) => task.id}
          rowProps={(task) => ({ 'data-testid': `review-row-${task.reportCode ?? task.id}` })}
          empty={dt('uiReviewEmpty')}
          actions={{
            labels: [dt('uiReviewOpen')],
            render: (task) => (
              <Button
                size="small"
                onClick={() => navigate(`/activecase?caseId=${encodeURIComponent(task.id)}`)}
              >
                {dt('uiReviewOpen')}
              </Button>
            ),
          }}
        />
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

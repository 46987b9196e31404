/**
 * Below the unblinding applications, for the blind owner: a project's blinding list - download the
 * template, upload a new version (a refused file keeps the previous one), the versions, the rows of
 * the current one (a recorded read) and who read the list when.
 */
import { useCallback, useEffect, useState } from 'react';
import {
  Button,
  Card,
  Field,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { saveFile } from '../../api/request';
import { notify } from '../../app/notify';
import { ProjectPicker } from '../../case-form/widgets/ProjectPickers';
import { useSession } from '../../app/SessionContext';
import type { ListRead, ListVersion } from './api';
import { unblindingApi, uploadBlindingList } from './api';
import type { UnblindingKey } from './text';
import { useUnblindingText } from './text';
import { formatDateTime } from '../../display/values';

const PERMISSION = 'casemanagement:unblindingManagement:blindBottom';

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  bar: { display: 'flex', alignItems: 'end', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
});

function SimpleTable({
  head,
  rows,
  testId,
}: {
  head: string[];
  rows: (string | number | null)[][];
  testId: string;
}) {
  return (
    <Table size="small" data-testid={testId}>
      <TableHeader>
        <TableRow>
          {head.map((h) => (
            <TableHeaderCell key={h}>{h}</TableHeaderCell>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row, i) => (
          <TableRow key={i}>
            {row.map((cell, j) => (
              <TableCell key={j}>{cell ?? ''}</TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

const PURPOSE: Record<ListRead['purpose'], UnblindingKey> = {
  view: 'uiPurposeView',
  handle: 'uiPurposeHandle',
  batch: 'uiPurposeBatch',
};

export default function BlindingListPanel() {
  const styles = useStyles();
  const ut = useUnblindingText();
  const { info } = useSession();
  const allowed = (info?.permissions ?? []).includes(PERMISSION);
  const [projects, setProjects] = useState<{ id: string; code: string; name: string; nameEn: string }[]>([]);
  const [projectId, setProjectId] = useState('');
  const [versions, setVersions] = useState<ListVersion[]>([]);
  const [reads, setReads] = useState<ListRead[]>([]);
  const [rows, setRows] = useState<Record<string, string | null>[] | null>(null);

  useEffect(() => {
    if (!allowed) return;
    void unblindingApi.projects().then(
      (answer) => {
        setProjects(answer.items);
        if (answer.items.length === 1) setProjectId(answer.items[0]!.id);
      },
      () => setProjects([]),
    );
  }, [allowed]);

  const load = useCallback(async () => {
    if (!projectId) return;
    setRows(null);
    const [v, r] = await Promise.all([unblindingApi.versions(projectId), unblindingApi.reads(projectId)]);
    setVersions(v.versions);
    setReads(r.items);
  }, [projectId]);
  useEffect(() => void load().catch(() => undefined), [load]);

  if (!allowed) return null;
  const upload = (file: File | undefined) => {
    if (!file) return;
    void uploadBlindingList(projectId, file).then(
      (saved) => {
        notify.toast('success', ut('uiUploaded', { version: saved.version, rows: saved.rowCount }));
        void load();
      },
      () => undefined,
    );
  };
  return (
    <Card className={styles.card} data-testid="blinding-list-panel">
      <Subtitle2>{ut('uiBlindingList')}</Subtitle2>
      <div className={styles.bar}>
        <Field label={ut('uiProject')}>
          <ProjectPicker
            value={projectId}
            onChange={setProjectId}
            label={ut('uiProject')}
            testId="blinding-project"
            choices={projects}
          />
        </Field>
        <Button
          disabled={!projectId}
          data-testid="blinding-template"
          onClick={() => void unblindingApi.template(projectId).then(saveFile, () => undefined)}
        >
          {ut('uiTemplate')}
        </Button>
        <Field label={ut('uiUpload')}>
          <input
            type="file"
            accept=".xlsx"
            disabled={!projectId}
            data-testid="blinding-upload"
            onChange={(e) => {
              upload(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </Field>
        <Button
          disabled={!versions.some((v) => v.current)}
          data-testid="blinding-show-rows"
          onClick={() =>
            void unblindingApi.rows(projectId).then(
              (answer) => {
                setRows(answer.rows);
                void load().then(() => setRows(answer.rows));
              },
              () => undefined,
            )
          }
        >
          {ut('uiShowRows')}
        </Button>
      </div>
      {projectId && !versions.length ? <Text>{ut('uiNoList')}</Text> : null}
      {versions.length ? (
        <SimpleTable
          testId="blinding-versions"
          head={[
            ut('uiVersion'),
            ut('uiFile'),
            ut('uiRows'),
            ut('uiUploadedBy'),
            ut('uiUploadedAt'),
            ut('uiCurrent'),
          ]}
          rows={versions.map((v) => [
            v.version,
            v.fileName,
            v.rowCount,
            v.uploadedByName,
            formatDateTime(v.uploadedAt),
            v.current ? '✓' : '',
          ])}
        />
      ) : null}
      {rows ? (
        <SimpleTable
          testId="blinding-rows"
          head={[
            ut('uiRandomisationNumber'),
            ut('uiSubjectNumber'),
            ut('uiTreatmentGroup'),
            ut('uiProductNumber'),
            ut('uiKitBatch'),
            ut('uiRoute'),
          ]}
          rows={rows.map((r) => [
            r.randomisationNumber ?? '',
            r.subjectNumber ?? '',
            r.treatmentGroup ?? '',
            r.productNumber ?? '',
            r.kitBatch ?? '',
            r.route ?? '',
          ])}
        />
      ) : null}
      {reads.length ? (
        <>
          <Subtitle2>{ut('uiReads')}</Subtitle2>
          <SimpleTable
            testId="blinding-reads"
            head={[
              ut('uiReader'),
              ut('uiReadAt'),
              ut('uiPurpose'),
              ut('uiVersion'),
              ut('uiCase'),
              ut('uiRandomisationNumber'),
            ]}
            rows={reads.map((r) => [
              r.readerName,
              formatDateTime(r.at),
              ut(PURPOSE[r.purpose]),
              r.version,
              r.reportCode,
              r.randomisationNumber,
            ])}
          />
        </>
      ) : null}
    </Card>
  );
}

/**
 * The upload: an E2B XML or a zip of them (or a line-listing or Excel workbook, read through one of
 * the project's import templates), with the template (project), MedDRA and WHODrug releases the
 * import needs (SPEC 5), the receipt date and the PV informed date.
 */
import { useEffect, useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  Field,
  Option,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { KINDS, uploadImport, importsApi } from './api';
import type { ImportKind, ImportOptions, ImportTemplateBrief } from './api';
import { useImportText } from './text';
import type { ImportKey } from './text';
import { todayIso } from '../../clock';
import { IsoDateInput } from '../../display/IsoDateInput';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

const toE2bDay = (value: string) => value.replace(/-/g, '');

/** Each kind's dialog title: what the file is. */
const UPLOAD_TITLES: Record<ImportKind, ImportKey> = {
  e2b: 'uiUploadTitle',
  lineListing: 'uiUploadTitleLineListing',
  excel: 'uiUploadTitleExcel',
  cioms: 'uiUploadTitleCioms',
};

export function UploadDialog({
  onClose,
  onUploaded,
  kind = 'e2b',
}: {
  onClose: () => void;
  onUploaded: () => void;
  kind?: ImportKind;
}) {
  const ACCEPT = KINDS[kind].accept;
  // A workbook is read through an import template; E2B and CIOMS through their declared layouts.
  const sheet = kind === 'lineListing' || kind === 'excel';
  const styles = useStyles();
  const { it, language } = useImportText();
  const [options, setOptions] = useState<ImportOptions | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [projectId, setProjectId] = useState('');
  const [meddraVersionId, setMeddra] = useState('');
  const [whodrugVersionId, setWhodrug] = useState('');
  const [receiptDate, setReceiptDate] = useState(todayIso());
  const [pvInformedDate, setPvInformedDate] = useState('');
  const [errors, setErrors] = useState<Partial<Record<string, ImportKey>>>({});
  const [busy, setBusy] = useState(false);
  const [templates, setTemplates] = useState<ImportTemplateBrief[]>([]);
  const [templateId, setTemplateId] = useState('');

  useEffect(() => {
    importsApi.options(kind).then(setOptions, () => setOptions({ projects: [], meddra: [], whodrug: [] }));
  }, [kind]);

  // A workbook is read through one of the chosen project's templates of its kind.
  useEffect(() => {
    setTemplateId('');
    if (kind === 'e2b' || kind === 'cioms' || !projectId) return setTemplates([]);
    importsApi.templates(projectId, kind).then(
      (answer) => setTemplates(answer.items),
      () => setTemplates([]),
    );
  }, [kind, projectId]);

  const submit = async () => {
    const found: Partial<Record<string, ImportKey>> = {};
    if (!file) found.file = 'uiNoFile';
    else if (!ACCEPT.includes(file.name.split('.').pop()?.toLowerCase() ?? ''))
      found.file =
        kind === 'e2b' ? 'uiFileTypeInvalid' : kind === 'cioms' ? 'uiFileTypeCioms' : 'uiFileTypeSheet';
    if (!projectId) found.projectId = 'uiTemplateRequired';
    if (!meddraVersionId) found.meddra = 'uiMeddraRequired';
    if (!whodrugVersionId) found.whodrug = 'uiWhodrugRequired';
    if (sheet && !templateId) found.templateId = 'uiImportTemplateRequired';
    setErrors(found);
    if (Object.keys(found).length || !file) return;
    setBusy(true);
    try {
      await uploadImport(
        file,
        {
          projectId,
          meddraVersionId,
          whodrugVersionId,
          receiptDate: toE2bDay(receiptDate),
          ...(pvInformedDate ? { pvInformedDate: toE2bDay(pvInformedDate) } : {}),
          ...(sheet ? { templateId } : {}),
        },
        kind,
      );
      onUploaded();
    } catch {
      setBusy(false);
    }
  };

  const pickOne = (
    label: ImportKey,
    testId: string,
    value: string,
    set: (value: string) => void,
    items: { value: string; text: string }[],
    error?: ImportKey,
  ) => (
    <Field label={it(label)} required validationMessage={error ? it(error) : undefined}>
      <Dropdown
        data-testid={testId}
        value={items.find((item) => item.value === value)?.text ?? ''}
        selectedOptions={value ? [value] : []}
        onOptionSelect={(_: unknown, data: OptionOnSelectData) => set(data.optionValue ?? '')}
      >
        {items.map((item) => (
          <Option key={item.value} value={item.value}>
            {item.text}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );
  const release = (v: { versionId: string; version: string; language: string }) => ({
    value: v.versionId,
    text: `${v.version} (${v.language})`,
  });

  return (
    <Dialog open modalType="alert">
      <DialogSurface data-testid="imports-upload-dialog">
        <DialogBody>
          <DialogTitle>{it(UPLOAD_TITLES[kind])}</DialogTitle>
          <DialogContent className={styles.form}>
            <Field
              label={it('uiFile')}
              required
              hint={it(
                kind === 'e2b' ? 'uiFileHint' : kind === 'cioms' ? 'uiFileHintCioms' : 'uiFileHintSheet',
              )}
              validationMessage={errors.file ? it(errors.file) : undefined}
            >
              <input
                type="file"
                accept={ACCEPT.map((extension) => `.${extension}`).join(',')}
                data-testid="imports-file-input"
                onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              />
            </Field>
            {pickOne(
              'uiTemplate',
              'imports-project',
              projectId,
              setProjectId,
              (options?.projects ?? []).map((p) => ({
                value: p.id,
                text: `${p.code} ${language === 'en' ? p.nameEn : p.name}`,
              })),
              errors.projectId,
            )}
            {sheet
              ? pickOne(
                  'uiImportTemplate',
                  'imports-template',
                  templateId,
                  setTemplateId,
                  templates.map((t) => ({ value: t.id, text: t.name })),
                  errors.templateId,
                )
              : null}
            {pickOne(
              'uiMeddraVersion',
              'imports-meddra',
              meddraVersionId,
              setMeddra,
              (options?.meddra ?? []).map(release),
              errors.meddra,
            )}
            {pickOne(
              'uiWhodrugVersion',
              'imports-whodrug',
              whodrugVersionId,
              setWhodrug,
              (options?.whodrug ?? []).map(release),
              errors.whodrug,
            )}
            <Field label={it('uiReceiptDate')}>
              <IsoDateInput ariaLabel={it('uiReceiptDate')} value={receiptDate} onChange={setReceiptDate} />
            </Field>
            <Field label={it('uiPvInformedDate')}>
              <IsoDateInput
                ariaLabel={it('uiPvInformedDate')}
                value={pvInformedDate}
                onChange={setPvInformedDate}
              />
            </Field>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{it('uiCancel')}</Button>
            <Button
              appearance="primary"
              disabled={busy}
              data-testid="imports-upload-submit"
              onClick={() => void submit()}
            >
              {it('uiUploadSubmit')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

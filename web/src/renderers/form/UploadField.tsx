/**
 * RJSF field `ui:field: "upload"`: a file chosen here is uploaded at once (`/api/files`, the kind
 * named in `ui:options.kind`, which says the allowed types) and the field's value becomes its id;
 * the chosen file's name shows beside the button. The server checks the id again when the form
 * is saved (a file the user may not read is refused).
 */
import { useRef, useState } from 'react';
import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { FieldProps } from '@rjsf/utils';
import { uploadFile } from '../../app/upload';
import { useLanguage } from '../../i18n/LanguageContext';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  hidden: { display: 'none' },
});

export function UploadField(props: FieldProps<string>) {
  const styles = useStyles();
  const { t, pick } = useLanguage();
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const kind = String(
    (props.uiSchema?.['ui:options'] as { kind?: string } | undefined)?.kind ?? 'attachment',
  );
  const label = props.schema.title ?? pick({ zh: '文件', en: 'File' });
  const choose = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      const info = await uploadFile<{ fileId: string; fileName: string }>(
        `/api/files?kind=${encodeURIComponent(kind)}`,
        file,
      );
      setName(info.fileName);
      props.onChange(info.fileId, props.fieldPathId.path);
    } catch {
      // The upload's refusal was shown; the field keeps its value.
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <div className={styles.root}>
      <Text weight="semibold">
        {label}
        {props.required ? ' *' : ''}
      </Text>
      <div className={styles.row}>
        <input
          ref={input}
          type="file"
          className={styles.hidden}
          aria-label={String(label)}
          data-testid={`upload-${props.name}`}
          onChange={(e) => void choose(e.target.files?.[0])}
          disabled={props.disabled || props.readonly}
        />
        <Button disabled={busy || props.disabled || props.readonly} onClick={() => input.current?.click()}>
          {t('form.chooseFile')}
        </Button>
        <Text data-testid={`upload-${props.name}-name`}>
          {name ?? (props.formData ? t('form.fileChosen') : t('form.noFile'))}
        </Text>
      </div>
    </div>
  );
}

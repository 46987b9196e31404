/**
 * The generic form (create, edit, view) in a dialog: RJSF with the Fluent UI theme, validated by
 * AJV against the definition's JSON Schema (2020-12) as the user types; the server validates again
 * and its refusal shows in the form. Closing with unsaved changes asks: save and exit, or exit.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, MessageBar, MessageBarBody } from '@fluentui/react-components';
import Form from '@rjsf/fluentui-rc';
import type { IChangeEvent } from '@rjsf/core';
import type { RJSFSchema, RJSFValidationError, ValidatorType } from '@rjsf/utils';
import { getDefaultFormState } from '@rjsf/utils';
import { api } from '../../app/api';
import { notify } from '../../app/notify';
import { RequestError } from '../../api/request';
import { useLanguage } from '../../i18n/LanguageContext';
import { useSession } from '../../app/SessionContext';
import { AppDialog } from '../../shell/AppDialog';
import type { FormDefinition } from '../definition';
import { fillPath } from '../definition';
import { reportResult } from '../result';
import { errorKey, localiseSchema, pickDeclared } from './localise';
import { cspValidator } from './cspValidator';
import type { LoadedOptions } from './options';
import { loadOptions, optionSources, withOptions } from './options';
import { PermissionTreeField } from './PermissionTreeField';
import { withoutEmpty } from './empty';
import { SaeOverlayField } from '../../pages/sae-templates/OverlayField';
import { DateWidget } from './DateWidget';
import { DateTimeWidget } from './DateTimeWidget';
import { UploadField } from './UploadField';
import { rjsfTranslator } from './translate';

/** Dates typed in ISO order with a calendar, not the browser's mm/dd/yyyy control. */
const FORM_WIDGETS = { DateWidget, DateTimeWidget };

// Not AJV: its generated code needs 'unsafe-eval', which the page's CSP refuses (cspValidator.ts).
const validator = cspValidator;
/** Special fields a definition's uiSchema can name with `ui:field`. */
const fields = { permissionTree: PermissionTreeField, saeOverlay: SaeOverlayField, upload: UploadField };

type Data = Record<string, unknown>;

export default function FormDialog(props: {
  definition: FormDefinition;
  title: string;
  mode: 'create' | 'edit' | 'view';
  row?: Data;
  /** Replaces the "Edit - title" heading (a row action's own form is named by the action). */
  heading?: string;
  onClose(): void;
  /** After the call succeeded, with the answer's data (e.g. the batch a correction planned). */
  onSaved(data?: Record<string, unknown> | null): void;
}) {
  const { definition, mode, row } = props;
  const { t, pick } = useLanguage();
  const translateString = useMemo(() => rjsfTranslator(t), [t]);
  const { info } = useSession();
  // Fields guarded by a permission the user lacks are shown read-only (the server refuses changes).
  const uiSchema = useMemo(() => {
    const held = new Set(info?.permissions ?? []);
    const ui: Record<string, unknown> = {
      ...(definition.uiSchema ?? {}),
      'ui:submitButtonOptions': { norender: true },
    };
    for (const [field, permission] of Object.entries(definition.fieldPermissions ?? {}))
      if (!held.has(permission)) ui[field] = { ...(ui[field] as object | undefined), 'ui:readonly': true };
    return ui;
  }, [definition, info]);
  const initial = useMemo(() => (row ? pickDeclared(definition.schema, row) : {}), [definition.schema, row]);
  const [data, setData] = useState<Data>(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<{ submit(): void } | null>(null);

  const [options, setOptions] = useState<LoadedOptions | null>(
    optionSources(definition.schema).length ? null : {},
  );
  useEffect(() => {
    loadOptions(definition.schema).then(setOptions, () => setOptions({}));
  }, [definition.schema]);

  const schema = useMemo(() => {
    const base = { ...definition.schema };
    const absent = (mode === 'create' ? definition.updateOnly : definition.createOnly) ?? [];
    if (absent.length) {
      const properties = { ...(base.properties as Record<string, unknown>) };
      for (const field of absent) delete properties[field];
      base.properties = properties;
      base.required = ((base.required as string[]) ?? []).filter((f) => !absent.includes(f));
    }
    delete base.$schema;
    return withOptions(localiseSchema(base, definition.labels, pick), options ?? {}, pick);
  }, [definition, mode, pick, options]);

  // Unsaved means changed from what the form showed when it opened, schema defaults included.
  const opened = useMemo(
    () =>
      JSON.stringify(
        withoutEmpty(
          getDefaultFormState<Data>(
            validator as ValidatorType<Data>,
            schema as RJSFSchema,
            initial,
            schema as RJSFSchema,
          ),
        ),
      ),
    [schema, initial],
  );
  const dirty = JSON.stringify(withoutEmpty(data)) !== opened;

  const save = async (formData: Data): Promise<boolean> => {
    const call = mode === 'create' ? definition.create : definition.update;
    if (!call) return false;
    setBusy(true);
    setError(null);
    try {
      const body = { ...pickDeclared(schema, formData), ...definition.fixed };
      if (mode === 'edit' && definition.revision && row) body.rev = row.rev;
      const answer = await api.envelope<Record<string, unknown> | null>(fillPath(call.path, row), {
        method: call.method,
        body,
        silent: true,
      });
      props.onSaved(answer.data);
      await reportResult(answer, call.showResult, t('form.saved'));
      return true;
    } catch (failure) {
      setError(failure instanceof RequestError ? failure.message : t('request.unknown'));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const close = async () => {
    if (mode === 'view' || !dirty) return props.onClose();
    const choice = await notify.ask({
      titleKey: 'form.unsavedTitle',
      message: { key: 'form.unsaved' },
      buttons: [
        { labelKey: 'common.cancel', value: 'cancel' },
        { labelKey: 'form.exitDirectly', value: 'exit' },
        { labelKey: 'form.saveAndExit', value: 'save', appearance: 'primary' },
      ],
    });
    if (choice === 'exit') props.onClose();
    // Save and exit: the form validates, saves, and closes through onSaved.
    if (choice === 'save') formRef.current?.submit();
  };

  const transformErrors = (errors: RJSFValidationError[]) =>
    errors.map((e) => ({
      ...e,
      message: t(errorKey(e.name), {
        limit: String((e.params as { limit?: number } | undefined)?.limit ?? ''),
      }),
    }));

  const heading =
    props.heading ??
    t(mode === 'create' ? 'form.createTitle' : mode === 'edit' ? 'form.editTitle' : 'form.viewTitle', {
      title: props.title,
    });

  return (
    <AppDialog
      open
      testId="form-dialog"
      title={heading}
      actions={
        <>
          <Button onClick={() => void close()} disabled={busy} data-testid="form-close">
            {mode === 'view' ? t('common.close') : t('common.cancel')}
          </Button>
          {mode === 'view' ? null : (
            <Button
              appearance="primary"
              disabled={busy}
              onClick={() => formRef.current?.submit()}
              data-testid="form-save"
            >
              {t('common.save')}
            </Button>
          )}
        </>
      }
    >
      {definition.note ? (
        <MessageBar intent="info" data-testid="form-note">
          <MessageBarBody>{pick(definition.note)}</MessageBarBody>
        </MessageBar>
      ) : null}
      {error ? (
        <MessageBar intent="error" data-testid="form-error">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      ) : null}
      {options === null ? null : (
        <Form
          ref={formRef as never}
          schema={schema}
          uiSchema={uiSchema}
          formData={data}
          validator={validator}
          fields={fields}
          widgets={FORM_WIDGETS}
          translateString={translateString}
          disabled={mode === 'view' || busy}
          liveValidate="onChange"
          showErrorList={false}
          noHtml5Validate
          transformErrors={transformErrors}
          onChange={(e: IChangeEvent) => setData(e.formData as Data)}
          onSubmit={(e: IChangeEvent) => void save(e.formData as Data)}
        />
      )}
    </AppDialog>
  );
}

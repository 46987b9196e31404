/**
 * "Apply SAE template" in a project's configuration: choose one of the platform's project SAE
 * templates, see what it holds, and write it into the project's UAT draft. PRO changes only through
 * the signed publish of template configuration, which the answer points to.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  Button,
  Dropdown,
  Field,
  MessageBar,
  MessageBarBody,
  Option,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { pickLabel } from '../../i18n';
import { AppDialog } from '../../shell/AppDialog';
import { useSession } from '../../app/SessionContext';
import { RequestError } from '../../api/request';
import { saeTemplates } from './api';
import type { ApplyResult, SaeTemplateChoice } from './api';
import { OverlaySummary } from './OverlaySummary';
import { useSaeText } from './text';

/** Who configures projects may apply a template (the server checks the same permission). */
const CONFIG_PERMISSION = 'authoritymanagement:projectInfo:config';

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
});

export function ApplySaeTemplate({ projectId, onApplied }: { projectId: string; onApplied(): void }) {
  const styles = useStyles();
  const { st, language } = useSaeText();
  const { info } = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [choices, setChoices] = useState<SaeTemplateChoice[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; problems: string[] } | null>(null);
  const [applied, setApplied] = useState<ApplyResult | null>(null);

  useEffect(() => {
    if (!open) return;
    setError(null);
    setApplied(null);
    saeTemplates.list().then(
      (list) => {
        setChoices(list);
        setChosen((current) => current ?? list[0]?.id ?? null);
      },
      (failure: unknown) => setError({ message: (failure as Error).message, problems: [] }),
    );
  }, [open]);

  if (!(info?.permissions ?? []).includes(CONFIG_PERMISSION)) return null;

  const template = choices?.find((choice) => choice.id === chosen) ?? null;
  const name = (choice: SaeTemplateChoice) =>
    `${choice.code} ${pickLabel(language, { zh: choice.name, en: choice.nameEn })}`;

  const apply = async () => {
    if (!template) return;
    setBusy(true);
    setError(null);
    try {
      setApplied(await saeTemplates.apply(template.id, projectId));
      onApplied();
    } catch (failure) {
      const data = failure instanceof RequestError ? (failure.data as { problems?: unknown } | null) : null;
      setError({
        message: failure instanceof Error ? failure.message : String(failure),
        problems: Array.isArray(data?.problems)
          ? (data.problems as { message?: string }[]).map((problem) => problem.message ?? '').filter(Boolean)
          : [],
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="sae-apply-open">
        {st('uiApplyOpen')}
      </Button>
      <AppDialog
        open={open}
        title={st('uiApplyTitle')}
        testId="sae-apply-dialog"
        width={720}
        actions={
          <>
            <Button onClick={() => setOpen(false)} disabled={busy} data-testid="sae-apply-close">
              {st('uiApplyClose')}
            </Button>
            {applied ? (
              <Button
                appearance="primary"
                onClick={() =>
                  void navigate(
                    `/authoritymanagement/templateConfiguration?projectId=${encodeURIComponent(projectId)}`,
                  )
                }
                data-testid="sae-apply-publish"
              >
                {st('uiOpenPublish')}
              </Button>
            ) : (
              <Button
                appearance="primary"
                disabled={busy || !template}
                onClick={() => void apply()}
                data-testid="sae-apply-confirm"
              >
                {st('uiApplyConfirm')}
              </Button>
            )}
          </>
        }
      >
        <div className={styles.body}>
          <MessageBar intent="info">
            <MessageBarBody>{st('uiApplyNote')}</MessageBarBody>
          </MessageBar>
          {choices && choices.length === 0 ? <Text>{st('uiApplyNone')}</Text> : null}
          {choices && choices.length > 0 ? (
            <Field label={st('uiApplyTemplate')}>
              <Dropdown
                placeholder={st('uiApplyChoose')}
                value={template ? name(template) : ''}
                selectedOptions={chosen ? [chosen] : []}
                onOptionSelect={(_: unknown, data: OptionOnSelectData) => {
                  setChosen(data.optionValue ?? null);
                  setApplied(null);
                  setError(null);
                }}
                data-testid="sae-apply-template"
              >
                {choices.map((choice) => (
                  <Option key={choice.id} value={choice.id} text={name(choice)}>
                    {name(choice)}
                  </Option>
                ))}
              </Dropdown>
            </Field>
          ) : null}
          {template ? (
            <>
              <Text>{pickLabel(language, { zh: template.description, en: template.descriptionEn })}</Text>
              <Text weight="semibold">{st('uiContents')}</Text>
              <OverlaySummary overlay={template.overlay} />
            </>
          ) : null}
          {applied ? (
            <MessageBar intent="success" data-testid="sae-apply-done">
              <MessageBarBody>
                {st('uiApplied', { added: applied.editsAdded, total: applied.edits })}
              </MessageBarBody>
            </MessageBar>
          ) : null}
          {error ? (
            <MessageBar intent="error" data-testid="sae-apply-error">
              <MessageBarBody>
                {error.problems.length ? (
                  <>
                    {st('uiApplyProblems')}
                    <ul>
                      {error.problems.map((problem, index) => (
                        <li key={index}>{problem}</li>
                      ))}
                    </ul>
                  </>
                ) : (
                  error.message
                )}
              </MessageBarBody>
            </MessageBar>
          ) : null}
        </div>
      </AppDialog>
    </>
  );
}
